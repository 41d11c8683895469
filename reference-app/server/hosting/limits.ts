import { DEFAULT_RESOURCES, type ServiceResources } from './contract';

// What a publisher's container may use (docs/publishing.md, "Isolation"). Containers are
// untrusted code: every limit here is enforced by the engine, not asked of the image.

/** Memory, CPU, process and GPU limits of one container. */
export interface ResourceLimits {
  memoryMb: number;
  cpus: number;
  pids: number;
  /** GPUs requested of the engine (only on a runner with CONTAINER_GPU set); absent: none. */
  gpus?: number;
}

/** The PID limit grows with the memory a service declares: a bigger service runs more workers. */
export const PIDS_BY_MEMORY: { upToMemoryMb: number; pids: number }[] = [
  { upToMemoryMb: 16_384, pids: 512 },
  { upToMemoryMb: 65_536, pids: 1024 },
  { upToMemoryMb: Infinity, pids: 2048 },
];

/**
 * One instance's limits from the resources its service declares (docs/publishing.md,
 * "Resources"), never from its GPU offer: an offer prices the service, and a runner without that
 * GPU must not reserve the offer's host slice (16 GB for an A4000) for a CPU service.
 * `CONTAINER_MEMORY_MB` caps the memory on a small host (and in the tests).
 */
export function limitsFor(resources: Partial<ServiceResources> = {}, memoryCapMb?: number): ResourceLimits {
  const { cpu, memoryMb, gpu } = { ...DEFAULT_RESOURCES, ...resources };
  const memory = memoryCapMb ? Math.min(memoryMb, memoryCapMb) : memoryMb;
  const pids = PIDS_BY_MEMORY.find((row) => memory <= row.upToMemoryMb)!.pids;
  return { memoryMb: memory, cpus: cpu, pids, ...(gpu > 0 ? { gpus: gpu } : {}) };
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
  /** How the host's GPUs are requested (CONTAINER_GPU); only when `limits.gpus` asks for some. */
  gpu: 'none' | 'docker' | 'cdi';
  /**
   * The devices this container holds of the runner's GPUs (gpuAllocator.ts, CONTAINER_GPUS): its
   * own, never another instance's. Required with `cdi`; with `docker`, absent lets the engine choose.
   */
  gpuDevices?: readonly string[];
  /** Publish the service port on 127.0.0.1 (engines whose container addresses the host cannot reach). */
  publishPort?: number;
  /** The VOLUMEs the image declares: each becomes a sized tmpfs instead of a volume on the host disk. */
  imageVolumes?: string[];
  /** `auto`: the container's root is an unprivileged host uid (CONTAINER_USERNS; Podman). */
  userns?: 'auto';
  /** The OCI runtime by name (Docker's `runtimes` in daemon.json, e.g. runsc for CONTAINER_SANDBOX=gvisor). */
  runtime?: string;
}

/** The CDI kind of the host's GPUs: a device is `nvidia.com/gpu=<name>` (the NVIDIA Container Toolkit's spec). */
export const CDI_GPU_KIND = 'nvidia.com/gpu';

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
  // A CPU service gets no GPU even on a GPU host, and a GPU service only the devices it holds
  // (docs/publishing.md, "Resources"): never CDI's `nvidia.com/gpu=all`, which would share them all.
  const gpus = limits.gpus ?? 0;
  const devices = options.gpuDevices ?? [];
  if (gpus > 0 && devices.length > 0 && devices.length !== gpus) {
    throw new Error(`${gpus} GPUs asked for and ${devices.length} devices given (${devices.join(',')})`);
  }
  if (gpus > 0 && options.gpu === 'docker') {
    hostConfig.DeviceRequests = [
      devices.length > 0
        ? { Driver: 'nvidia', DeviceIDs: [...devices], Capabilities: [['gpu']] }
        : { Driver: 'nvidia', Count: gpus, Capabilities: [['gpu']] },
    ];
  }
  if (gpus > 0 && options.gpu === 'cdi') {
    if (devices.length === 0) throw new Error('A CDI container is given its own GPU devices (CONTAINER_GPUS), never all of them');
    hostConfig.Devices = devices.map((device) => ({ PathOnHost: `${CDI_GPU_KIND}=${device}`, PathInContainer: '', CgroupPermissions: '' }));
  }
  return hostConfig;
}
