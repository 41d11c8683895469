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
    }
  >;
}

/** The service's environment (interpolated), replica count and the `podman run` options its settings mean. */
export function composeService(compose: ComposeFile, name: string, variables: Record<string, string | undefined>) {
  const service = compose.services[name];
  if (!service) throw new Error(`compose file has no service ${name}`);
  const environment = Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), variables)]),
  );
  const options: string[] = [];
  if (service.init) options.push('--init');
  const grace = service.stop_grace_period?.match(/^(\d+)s$/);
  if (grace) options.push('--stop-timeout', grace[1]!);
  return { environment, replicas: service.deploy?.replicas ?? 1, options };
}
