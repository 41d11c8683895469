import type Docker from 'dockerode';

// Creating a container that holds CDI devices on Podman (docs/publishing.md, "Resources").
// Podman's Docker-compatible create does not resolve CDI names: it reads HostConfig.Devices as
// host paths ("stat nvidia.com/gpu=0: no such file or directory") and drops a DeviceRequest of
// driver `cdi` (Podman 4.3, measured), so a GPU container is created through Podman's own API,
// `POST /libpod/containers/create`, whose `devices` Podman resolves through its CDI
// specifications. The body is the same container the Docker-compatible create would make,
// translated field by field from the one HostConfig every container gets (limits.ts,
// isolatedHostConfig); a field this translation does not know is refused rather than dropped,
// so a new isolation setting cannot silently go missing from GPU containers.

/** The Docker-style create body engine.ts builds for every container. */
export interface CompatCreateBody {
  Image: string;
  Env: string[];
  ExposedPorts: Record<string, object>;
  Labels: Record<string, string>;
  HostConfig: Record<string, unknown>;
}

/** What the translation knows of a HostConfig; anything else is refused (see above). */
const KNOWN_HOST_CONFIG = new Set([
  'Privileged',
  'CapDrop',
  'CapAdd',
  'SecurityOpt',
  'Memory',
  'MemorySwap',
  'NanoCpus',
  'PidsLimit',
  'ReadonlyRootfs',
  'Tmpfs',
  'NetworkMode',
  'RestartPolicy',
  'LogConfig',
  'UsernsMode',
  'Runtime',
  'PortBindings',
  'Devices',
]);

/** Podman's SpecGenerator for the same container (the libpod API's create body). */
export function libpodSpecOf(body: CompatCreateBody): Record<string, unknown> {
  const host = body.HostConfig;
  const unknown = Object.keys(host).filter((key) => !KNOWN_HOST_CONFIG.has(key));
  if (unknown.length) throw new Error(`libpodSpecOf does not translate HostConfig.${unknown.join(', HostConfig.')}`);
  if (host.Privileged) throw new Error('a privileged container is never created');
  const securityOpt = (host.SecurityOpt as string[] | undefined) ?? [];
  const other = securityOpt.filter((opt) => opt !== 'no-new-privileges');
  if (other.length) throw new Error(`libpodSpecOf does not translate SecurityOpt ${other.join(', ')}`);
  const nanoCpus = Number(host.NanoCpus ?? 0);
  const period = 100_000;
  const tmpfs = (host.Tmpfs as Record<string, string> | undefined) ?? {};
  const bindings = (host.PortBindings as Record<string, { HostIp: string; HostPort: string }[]> | undefined) ?? {};
  const log = host.LogConfig as { Type: string; Config?: Record<string, string> } | undefined;
  const devices = (host.Devices as { PathOnHost: string }[] | undefined) ?? [];
  return {
    image: body.Image,
    env: Object.fromEntries(body.Env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])),
    labels: body.Labels,
    privileged: false,
    cap_drop: host.CapDrop ?? [],
    cap_add: host.CapAdd ?? [],
    no_new_privileges: securityOpt.includes('no-new-privileges'),
    read_only_filesystem: Boolean(host.ReadonlyRootfs),
    resource_limits: {
      memory: { limit: host.Memory, swap: host.MemorySwap },
      ...(nanoCpus > 0 ? { cpu: { quota: Math.round((nanoCpus / 1e9) * period), period } } : {}),
      ...(host.PidsLimit ? { pids: { limit: host.PidsLimit } } : {}),
    },
    mounts: Object.entries(tmpfs).map(([destination, options]) => ({
      destination,
      type: 'tmpfs',
      source: 'tmpfs',
      options: options.split(','),
    })),
    netns: { nsmode: 'bridge' },
    networks: { [String(host.NetworkMode)]: {} },
    restart_policy: (host.RestartPolicy as { Name?: string } | undefined)?.Name || 'no',
    ...(log ? { log_configuration: { driver: log.Type, ...sizeOf(log.Config?.['max-size']) } } : {}),
    ...(host.UsernsMode === 'auto' ? { userns: { nsmode: 'auto' } } : {}),
    ...(host.Runtime ? { oci_runtime: host.Runtime } : {}),
    expose: Object.fromEntries(Object.keys(body.ExposedPorts).map((port) => [Number.parseInt(port, 10), 'tcp'])),
    portmappings: Object.entries(bindings).flatMap(([port, hosts]) =>
      hosts.map((b) => ({ container_port: Number.parseInt(port, 10), host_ip: b.HostIp, host_port: Number(b.HostPort || 0) })),
    ),
    devices: devices.map((device) => ({ path: device.PathOnHost })),
  };
}

/** The engine's log size cap (`max-size`, e.g. 10m) in libpod's terms: bytes. */
function sizeOf(maxSize: string | undefined): { size?: number } {
  const match = /^(\d+)([kmg]?)$/i.exec(maxSize ?? '');
  if (!match) return {};
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return { size: Number(match[1]) * unit };
}

/** Creates the container through Podman's own API; returns its id. */
export function createThroughLibpod(docker: Docker, body: CompatCreateBody): Promise<string> {
  return new Promise((resolve, reject) => {
    docker.modem.dial(
      {
        path: '/v4.0.0/libpod/containers/create',
        method: 'POST',
        options: libpodSpecOf(body),
        statusCodes: { 201: true, 400: 'bad parameter', 404: 'no such image', 409: 'conflict', 500: 'server error' },
      },
      (error: unknown, data: unknown) => {
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(String((data as { Id?: string; id?: string }).Id ?? (data as { id?: string }).id));
      },
    );
  });
}
