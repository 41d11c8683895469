// Reads a compose file's service as `podman run` needs it (test/image/image.test.ts): Podman
// here has no compose, so the test starts the service's containers itself from the file's values.

/** `${NAME}`, `${NAME:-default}` and `${NAME:?message}` from `variables`, as compose interpolates them. */
export function interpolate(value: string, variables: Record<string, string | undefined>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, rest = '') => {
    const set = variables[name];
    if (set !== undefined && set !== '') return set;
    if (kind === '?') throw new Error(`compose needs ${name}: ${rest}`);
    return kind === '-' ? rest : '';
  });
}

interface ComposeFile {
  services: Record<
    string,
    {
      environment?: Record<string, string | number | boolean>;
      deploy?: { replicas?: number };
      init?: boolean;
      stop_grace_period?: string;
      volumes?: string[];
    }
  >;
}

/**
 * The service's environment (interpolated), replica count and the `podman run` options its
 * settings mean; a named volume `v` becomes the Podman volume `<volumePrefix>-v`.
 */
export function composeService(compose: ComposeFile, name: string, variables: Record<string, string | undefined>, volumePrefix: string) {
  const service = compose.services[name];
  if (!service) throw new Error(`compose file has no service ${name}`);
  const environment = Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), variables)]),
  );
  const options: string[] = [];
  if (service.init) options.push('--init');
  const grace = service.stop_grace_period?.match(/^(\d+)s$/);
  if (grace) options.push('--stop-timeout', grace[1]!);
  const volumes: string[] = [];
  for (const volume of service.volumes ?? []) {
    const [source, target, mode] = volume.split(':');
    const named = !source!.startsWith('.') && !source!.startsWith('/');
    if (named) volumes.push(`${volumePrefix}-${source}`);
    options.push('-v', [named ? `${volumePrefix}-${source}` : source, target, mode].filter(Boolean).join(':'));
  }
  return { environment, replicas: service.deploy?.replicas ?? 1, options, volumes };
}
