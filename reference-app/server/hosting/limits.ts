// What a publisher's container may use (docs/publishing.md, "Isolation"). Containers are
// untrusted code: every limit here is enforced by the engine, not asked of the image.

/** Memory, CPU and process limits per GPU type; a GPU's host slice, not the whole machine. */
export interface ResourceLimits {
  memoryMb: number;
  cpus: number;
  pids: number;
}

/**
 * The documented table (docs/publishing.md, "Isolation"): a GPU offer's host slice grows with
 * its VRAM, as the providers size theirs. A GPU id the runner cannot size gets the smallest row,
 * so a deployment never gets more than its offer pays for. `CONTAINER_MEMORY_MB` caps every row
 * on a small host (and in the tests).
 */
export const LIMITS_BY_VRAM: { upToVramGb: number; limits: ResourceLimits }[] = [
  { upToVramGb: 16, limits: { memoryMb: 16_384, cpus: 4, pids: 512 } },
  { upToVramGb: 24, limits: { memoryMb: 32_768, cpus: 8, pids: 512 } },
  { upToVramGb: 48, limits: { memoryMb: 65_536, cpus: 12, pids: 1024 } },
  { upToVramGb: 80, limits: { memoryMb: 131_072, cpus: 16, pids: 1024 } },
  { upToVramGb: Infinity, limits: { memoryMb: 262_144, cpus: 32, pids: 2048 } },
];

export function limitsForGpu(vramGb: number | null, memoryCapMb?: number): ResourceLimits {
  const row = LIMITS_BY_VRAM.find((r) => vramGb !== null && vramGb <= r.upToVramGb) ?? LIMITS_BY_VRAM[0]!;
  const memoryMb = memoryCapMb ? Math.min(row.limits.memoryMb, memoryCapMb) : row.limits.memoryMb;
  return { ...row.limits, memoryMb };
}

/**
 * Capabilities a container keeps after dropping all: none. An HTTP service on an unprivileged
 * port (8080) needs no capability; an image that binds a port below 1024 or changes user at
 * start must be rebuilt to do without.
 */
export const ADDED_CAPABILITIES: string[] = [];

/**
 * The writable scratch space, in MB per path: tmpfs mounts (counted in the memory limit, so the
 * host disk never fills), none of which can run a program. Every other path is read-only.
 */
export const SCRATCH_MOUNTS: Record<string, number> = { '/tmp': 64, '/var/tmp': 64, '/run': 8, '/dev/shm': 64 };
/** Size of the tmpfs mounted over each VOLUME the image declares (the engine would make a host volume). */
export const VOLUME_TMPFS_MB = 256;
/** The engine's log file per container, in MB: the oldest lines go first (the runner keeps its own ring). */
export const LOG_MAX_MB = 10;

const tmpfs = (mb: number) => `rw,noexec,nosuid,nodev,size=${mb}m`;

export interface IsolationOptions {
  limits: ResourceLimits;
  network: string;
  /** Request the host's GPUs (only set on a host that has one). */
  gpu: 'none' | 'docker' | 'cdi';
  /** Publish the service port on 127.0.0.1 (engines whose container addresses the host cannot reach). */
  publishPort?: number;
  /** The VOLUMEs the image declares: each becomes a sized tmpfs instead of a volume on the host disk. */
  imageVolumes?: string[];
  /** `auto`: the container's root is an unprivileged host uid (CONTAINER_USERNS; Podman). */
  userns?: 'auto';
  /** The OCI runtime by name (Docker's `runtimes` in daemon.json, e.g. runsc for CONTAINER_SANDBOX=gvisor). */
  runtime?: string;
}

/** The HostConfig of every publisher container. */
export function isolatedHostConfig(options: IsolationOptions): Record<string, unknown> {
  const { limits } = options;
  const hostConfig: Record<string, unknown> = {
    Privileged: false,
    CapDrop: ['ALL'],
    CapAdd: ADDED_CAPABILITIES,
    // no-new-privileges: setuid binaries in the image cannot gain privileges; no seccomp option
    // is given, so the engine's default seccomp profile applies.
    SecurityOpt: ['no-new-privileges'],
    Memory: limits.memoryMb * 1024 * 1024,
    // Equal to Memory: no swap beyond the limit, so exceeding it kills the process (OOM).
    MemorySwap: limits.memoryMb * 1024 * 1024,
    NanoCpus: Math.round(limits.cpus * 1e9),
    PidsLimit: limits.pids,
    ReadonlyRootfs: true,
    Tmpfs: {
      ...Object.fromEntries((options.imageVolumes ?? []).map((path) => [path, tmpfs(VOLUME_TMPFS_MB)])),
      ...Object.fromEntries(Object.entries(SCRATCH_MOUNTS).map(([path, mb]) => [path, tmpfs(mb)])),
    },
    NetworkMode: options.network,
    RestartPolicy: { Name: 'no' },
    LogConfig: { Type: 'k8s-file', Config: { 'max-size': `${LOG_MAX_MB}m` } },
  };
  if (options.userns) hostConfig.UsernsMode = options.userns;
  if (options.runtime) hostConfig.Runtime = options.runtime;
  if (options.publishPort) hostConfig.PortBindings = { [`${options.publishPort}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '' }] };
  if (options.gpu === 'docker') hostConfig.DeviceRequests = [{ Driver: 'nvidia', Count: -1, Capabilities: [['gpu']] }];
  if (options.gpu === 'cdi') hostConfig.Devices = [{ PathOnHost: 'nvidia.com/gpu=all', PathInContainer: '', CgroupPermissions: '' }];
  return hostConfig;
}
