import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { SCRATCH_MOUNTS, type ResourceLimits } from '../limits';

// Memory snapshots of container services under gVisor (docs/deploy.md, "Snapshot cold starts";
// issue 52). Podman cannot checkpoint a runsc container and CRIU does not work on the runner's
// kernel, so a snapshot is taken and restored with the runsc CLI directly, beside Podman, which
// still pulls the image (its storage gives the root file system) and runs every cold start that
// is not a restore.
//
// The app runs its setup, then waits at its snapshot point (limelight.serve, snapshot.py) for a
// per-instance file on a read-only mount, without a socket open: a listening or connected socket
// cannot be checkpointed (runsc: "endpoint still has waiters upon save"), and a failed checkpoint
// kills the sandbox. The snapshot is taken there; each restore gets a fresh sandbox, a fresh network
// namespace and its own instance file, after which the app reseeds, binds and serves.

const run = promisify(execFile);

/** The line limelight.serve prints at its snapshot point (snapshot.py, SNAPSHOT_POINT). */
export const SNAPSHOT_POINT = 'limelight: snapshot point:';
/** The start of the line that says why an app cannot be snapshotted (snapshot.py, SNAPSHOT_SKIPPED). */
export const SNAPSHOT_SKIPPED = 'limelight: no snapshot:';
/** The line limelight.serve prints once restored, just before it binds (snapshot.py, snapshot_point). */
export const RESTORED = 'limelight: restored from a snapshot';
/** Where the instance file's folder is mounted in the sandbox, read-only. */
export const INSTANCE_MOUNT = '/limelight';
export const INSTANCE_FILE = `${INSTANCE_MOUNT}/instance.json`;
/** The environment variable that turns on limelight.serve's snapshot point. */
export const WAIT_ENV = 'LIMELIGHT_SNAPSHOT_WAIT';

/**
 * runsc 20221219 refuses sandbox networking on kernels that show /proc/sys/net/core/rmem_default in
 * every network namespace ("cannot run with network enabled in root network namespace", gVisor
 * issue 10704): its check reads that file from the container's namespace. runsc therefore runs in a
 * mount namespace of its own whose /proc/sys lacks `net` (the other folders bound back, the
 * Sentry reads vm/mmap_min_addr); the namespace ends with runsc.
 */
const HIDE_NET_SYSCTLS = `d=/run/limelight-runsc-procsys; mkdir -p $d
mount --bind /proc/sys $d
mount -t tmpfs -o size=4k none /proc/sys
for sub in $(ls $d); do [ "$sub" = net ] && continue; mkdir /proc/sys/$sub; mount --bind $d/$sub /proc/sys/$sub; done
umount $d
exec "$RUNSC" "$@"`;

/** Why snapshots cannot be taken on this host, or null (root, runsc, unshare, ip, podman). */
export function snapshotUnavailableReason(runsc = 'runsc'): string | null {
  if (process.getuid?.() !== 0) return 'memory snapshots drive runsc and network namespaces as root';
  for (const [binary, pkg] of [
    [runsc, 'runsc'],
    ['unshare', 'util-linux'],
    ['ip', 'iproute2'],
    ['podman', 'podman'],
  ] as const) {
    const found = binary.includes('/')
      ? existsSync(binary)
      : (process.env.PATH ?? '').split(':').some((dir) => existsSync(path.join(dir, binary)));
    if (!found) return `${binary} is not installed (apt-get install ${pkg})`;
  }
  return null;
}

/** The parts of an image's configuration a sandbox runs with. */
export interface ImageConfig {
  env: string[];
  cmd: string[];
  workingDir: string;
}

export interface SandboxOptions {
  /** runsc's state folder and the snapshots' home (one folder per snapshot). */
  root: string;
  runsc?: string;
  /** The environment of `podman image mount` (CONTAINERS_CONF of the runner's Podman). */
  podmanEnv?: NodeJS.ProcessEnv;
  /** Lines the sandboxes print, by sandbox id. */
  onOutput?: (id: string, stream: 'stdout' | 'stderr', line: string) => void;
}

export interface NetworkNamespace {
  name: string;
  /** The sandbox's address, reached from the host through the namespace's veth. */
  address: string;
  remove(): Promise<void>;
}

export interface Snapshot {
  /** Its folder: the checkpoint image, the root file system overlay and the spec. */
  dir: string;
  /** Bytes of the checkpoint image (the sandbox's memory and kernel state). */
  sizeBytes: number;
  takenAt: Date;
  /** Milliseconds from the sandbox's start to the checkpoint's end (setup included). */
  tookMs: number;
  checkpointMs: number;
}

export interface Restored {
  id: string;
  /** Its network namespace (removed by stop). */
  netns: string;
  baseUrl: string;
  /** Milliseconds per stage: netns (its namespace and files), restore (runsc until the app says it is restored). */
  stages: Record<string, number>;
  stop(): Promise<void>;
}

/** Why a snapshot could not be taken, in words for the deployment's log. */
export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

/** Every /30 of 10.213.0.0/16 is one namespace: .1 the host's end, .2 the sandbox's. */
const SLOTS = 16_384;
const slotAddress = (slot: number, host: number) => `10.213.${slot >> 6}.${((slot & 63) << 2) + host}`;

/**
 * A fresh network namespace with a veth to the host and no route out (as a deployment's internal
 * Podman network): runsc moves the interface's address into its own network stack, so every start
 * and restore needs one of its own (~50 ms). Names are claimed by `ip netns add`, which refuses one
 * taken, so runners and tests on one host never share a namespace.
 */
export async function createNetworkNamespace(): Promise<NetworkNamespace> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const slot = randomBytes(2).readUInt16BE() % SLOTS;
    const name = `ll-snap-${slot}`;
    try {
      await run('ip', ['netns', 'add', name]);
    } catch {
      continue; // taken
    }
    const host = `llsh${slot}`;
    const remove = async () => {
      await run('ip', ['link', 'del', host]).catch(() => undefined);
      await run('ip', ['netns', 'del', name]).catch(() => undefined);
    };
    try {
      await run('ip', ['link', 'add', host, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', name]);
      await run('ip', ['addr', 'add', `${slotAddress(slot, 1)}/30`, 'dev', host]);
      await run('ip', ['link', 'set', host, 'up']);
      await run('ip', ['-n', name, 'addr', 'add', `${slotAddress(slot, 2)}/30`, 'dev', 'eth0']);
      await run('ip', ['-n', name, 'link', 'set', 'eth0', 'up']);
      await run('ip', ['-n', name, 'link', 'set', 'lo', 'up']);
      // The sandbox keeps eth0's hardware address. A neighbour entry made now spares the first
      // request an ARP query the sandbox cannot answer while it is still being restored: the
      // kernel asks again only after a second (measured: every restore then took ~1.3 s).
      const { stdout } = await run('ip', ['-n', name, '-j', 'link', 'show', 'eth0']);
      const mac = (JSON.parse(stdout) as { address: string }[])[0]!.address;
      await run('ip', ['neigh', 'replace', slotAddress(slot, 2), 'lladdr', mac, 'dev', host, 'nud', 'permanent']);
    } catch (error) {
      await remove();
      throw new SnapshotError(`Creating a network namespace failed: ${(error as Error).message}`);
    }
    return { name, address: slotAddress(slot, 2), remove };
  }
  throw new SnapshotError('No free network namespace slot after 20 tries');
}

const tmpfsOptions = (mb: number) => ['rw', 'noexec', 'nosuid', 'nodev', `size=${mb}m`];

/** The OCI spec of a sandbox: the image's command, the runner's limits, read-only root, scratch tmpfs. */
export function sandboxSpec(options: {
  rootfs: string;
  image: ImageConfig;
  env: Record<string, string>;
  limits: ResourceLimits;
  netns: string;
  instanceDir: string;
}): Record<string, unknown> {
  const env = [
    ...options.image.env.filter((e) => !(e.split('=')[0]! in options.env)),
    ...Object.entries(options.env).map(([k, v]) => `${k}=${v}`),
  ];
  return {
    ociVersion: '1.0.2',
    process: {
      terminal: false,
      user: { uid: 0, gid: 0 },
      args: options.image.cmd,
      env,
      cwd: options.image.workingDir || '/',
      capabilities: { bounding: [], effective: [], permitted: [], inheritable: [], ambient: [] },
      noNewPrivileges: true,
    },
    root: { path: options.rootfs, readonly: true },
    hostname: 'limelight',
    mounts: [
      { destination: '/proc', type: 'proc', source: 'proc' },
      { destination: '/dev', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'mode=755'] },
      ...Object.entries(SCRATCH_MOUNTS).map(([destination, mb]) => ({
        destination,
        type: 'tmpfs',
        source: 'tmpfs',
        options: tmpfsOptions(mb),
      })),
      { destination: INSTANCE_MOUNT, type: 'bind', source: options.instanceDir, options: ['rbind', 'ro'] },
    ],
    linux: {
      namespaces: [
        { type: 'pid' },
        { type: 'ipc' },
        { type: 'uts' },
        { type: 'mount' },
        { type: 'network', path: `/var/run/netns/${options.netns}` },
      ],
      resources: {
        memory: { limit: options.limits.memoryMb * 2 ** 20 },
        cpu: { quota: Math.round(options.limits.cpus * 100_000), period: 100_000 },
        pids: { limit: options.limits.pids },
      },
    },
  };
}

/** Snapshots and restores of images' sandboxes with the runsc CLI. */
export class RunscSnapshots {
  readonly root: string;
  readonly #runsc: string;
  readonly #podmanEnv: NodeJS.ProcessEnv;
  readonly #onOutput: SandboxOptions['onOutput'];
  readonly #children = new Set<ChildProcess>();
  /** Network namespaces made ahead of restores (no memory, no process; see prepareNamespaces). */
  readonly #namespaces: NetworkNamespace[] = [];

  constructor(options: SandboxOptions) {
    this.root = options.root;
    this.#runsc = options.runsc ?? 'runsc';
    this.#podmanEnv = options.podmanEnv ?? process.env;
    this.#onOutput = options.onOutput;
  }

  #spawn(args: string[]): ChildProcess {
    const child = spawn(
      'unshare',
      [
        '-m',
        '--propagation',
        'private',
        'sh',
        '-e',
        '-c',
        HIDE_NET_SYSCTLS,
        'runsc',
        `--root=${path.join(this.root, 'state')}`,
        '--platform=ptrace',
        ...args,
      ],
      {
        env: { ...process.env, RUNSC: this.#runsc },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.#children.add(child);
    child.once('exit', () => this.#children.delete(child));
    return child;
  }

  #lines(id: string, child: ChildProcess, onLine?: (line: string, stream: 'stdout' | 'stderr') => void): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      let partial = '';
      child[stream]!.on('data', (chunk: Buffer) => {
        const parts = (partial + chunk.toString('utf8')).split('\n');
        partial = parts.pop()!;
        for (const line of parts) {
          this.#onOutput?.(id, stream, line);
          onLine?.(line, stream);
        }
      });
    }
  }

  async #command(args: string[]): Promise<void> {
    await run(
      'unshare',
      ['-m', '--propagation', 'private', 'sh', '-e', '-c', HIDE_NET_SYSCTLS, 'runsc', `--root=${path.join(this.root, 'state')}`, ...args],
      {
        env: { ...process.env, RUNSC: this.#runsc },
      },
    );
  }

  /**
   * The image's root file system (Podman's storage, read-only) under an overlay that adds the
   * instance mount's folder, which the image lacks and the read-only root cannot make.
   */
  async #rootfs(dir: string, image: string): Promise<string> {
    const { stdout } = await run('podman', ['image', 'mount', image], { env: this.#podmanEnv });
    const lower = stdout.trim();
    const [upper, work, merged] = ['upper', 'work', 'rootfs'].map((d) => path.join(dir, d));
    await Promise.all([upper, work, merged].map((d) => mkdir(d!, { recursive: true })));
    await mkdir(path.join(upper!, INSTANCE_MOUNT), { recursive: true });
    await run('mount', ['-t', 'overlay', 'overlay', '-o', `lowerdir=${lower},upperdir=${upper},workdir=${work}`, merged!]);
    return merged!;
  }

  /**
   * Starts the image in a sandbox with the snapshot point on, waits for it (setup included, up to
   * `timeoutMs`), and checkpoints it. The app's refusal (a socket left open by setup) and a failed
   * checkpoint are SnapshotErrors in words; nothing of the sandbox is left either way.
   */
  async take(options: {
    key: string;
    image: string;
    config: ImageConfig;
    env: Record<string, string>;
    limits: ResourceLimits;
    timeoutMs: number;
  }): Promise<Snapshot> {
    const started = performance.now();
    const dir = path.join(this.root, 'snapshots', options.key);
    // The service's memory after setup (secrets in its environment included): the runner's only.
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    await this.#removeDir(dir);
    await mkdir(path.join(dir, 'instance'), { recursive: true });
    const rootfs = await this.#rootfs(dir, options.image);
    const netns = await createNetworkNamespace();
    const id = `snap-${randomBytes(6).toString('hex')}`;
    const bundle = path.join(dir, 'bundle');
    await mkdir(bundle, { recursive: true });
    const env = { ...options.env, [WAIT_ENV]: INSTANCE_FILE };
    await writeFile(
      path.join(bundle, 'config.json'),
      JSON.stringify(
        sandboxSpec({
          rootfs,
          image: options.config,
          env,
          limits: options.limits,
          netns: netns.name,
          instanceDir: path.join(dir, 'instance'),
        }),
      ),
    );
    await writeFile(
      path.join(dir, 'image.json'),
      JSON.stringify({ image: options.image, config: options.config, env, limits: options.limits }),
    );
    const child = this.#spawn(['run', `--bundle=${bundle}`, id]);
    const tail: string[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new SnapshotError(`The app did not reach its snapshot point within ${Math.round(options.timeoutMs / 1000)} s`)),
          options.timeoutMs,
        );
        this.#lines(id, child, (line) => {
          tail.push(line);
          if (tail.length > 20) tail.shift();
          if (line.startsWith(SNAPSHOT_POINT)) {
            clearTimeout(timer);
            resolve();
          } else if (line.startsWith(SNAPSHOT_SKIPPED)) {
            clearTimeout(timer);
            reject(new SnapshotError(line.slice('limelight: '.length)));
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(
            new SnapshotError(`The sandbox exited (code ${code}) before the snapshot point: ${tail.slice(-5).join(' / ') || 'no output'}`),
          );
        });
      });
      const t = performance.now();
      try {
        await this.#command(['checkpoint', `--image-path=${path.join(dir, 'image')}`, id]);
      } catch (error) {
        throw new SnapshotError(
          `runsc checkpoint failed: ${String((error as { stderr?: string }).stderr ?? (error as Error).message)
            .trim()
            .split('\n')
            .pop()}`,
        );
      }
      const checkpointMs = Math.round(performance.now() - t);
      const { size } = await stat(path.join(dir, 'image', 'checkpoint.img'));
      return { dir, sizeBytes: size, takenAt: new Date(), tookMs: Math.round(performance.now() - started), checkpointMs };
    } catch (error) {
      await this.#removeDir(dir);
      throw error;
    } finally {
      child.kill('SIGKILL');
      await this.#command(['delete', '--force', id]).catch(() => undefined);
      await netns.remove();
    }
  }

  /**
   * A new instance from `snapshot`: a fresh network namespace, its instance file (a seed of its
   * own, its settings), a new sandbox restored from the image, then its HTTP address.
   */
  async restore(
    snapshot: Pick<Snapshot, 'dir'>,
    instance: { env?: Record<string, string>; port: number; output?: (stream: 'stdout' | 'stderr', line: string) => void },
    timeoutMs = 60_000,
  ): Promise<Restored> {
    const stages: Record<string, number> = {};
    let t = performance.now();
    const netns = this.#namespaces.shift() ?? (await createNetworkNamespace());
    const id = `rest-${randomBytes(6).toString('hex')}`;
    const own = path.join(this.root, 'instances', id);
    await mkdir(path.join(own, 'instance'), { recursive: true });
    await mkdir(path.join(own, 'bundle'), { recursive: true });
    const saved = JSON.parse(await readFile(path.join(snapshot.dir, 'image.json'), 'utf8')) as {
      config: ImageConfig;
      env: Record<string, string>;
      limits: ResourceLimits;
    };
    await writeFile(
      path.join(own, 'instance', 'instance.json'),
      JSON.stringify({ instance: id, seed: randomBytes(32).toString('hex'), env: instance.env ?? {} }),
    );
    await writeFile(
      path.join(own, 'bundle', 'config.json'),
      JSON.stringify(
        sandboxSpec({
          rootfs: path.join(snapshot.dir, 'rootfs'),
          image: saved.config,
          env: saved.env,
          limits: saved.limits,
          netns: netns.name,
          instanceDir: path.join(own, 'instance'),
        }),
      ),
    );
    stages.netns = Math.round(performance.now() - t);
    t = performance.now();
    const child = this.#spawn(['restore', `--image-path=${path.join(snapshot.dir, 'image')}`, `--bundle=${path.join(own, 'bundle')}`, id]);
    const stop = async () => {
      child.kill('SIGKILL');
      await this.#command(['delete', '--force', id]).catch(() => undefined);
      await netns.remove();
      await rm(own, { recursive: true, force: true });
    };
    // No request goes to the sandbox before the app says it is restored: a SYN sent while runsc
    // still loads the snapshot is lost, and the kernel sends it again only a second later
    // (measured: ~600 ms of every restore went there).
    const tail: string[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new SnapshotError(`The restored app did not say it was restored within ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        );
        this.#lines(id, child, (line, stream) => {
          instance.output?.(stream, line);
          tail.push(line);
          if (tail.length > 5) tail.shift();
          if (line.startsWith(RESTORED)) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new SnapshotError(`runsc restore exited (code ${code}) before the app was restored: ${tail.join(' / ') || 'no output'}`));
        });
      });
    } catch (error) {
      await stop();
      throw error;
    }
    stages.restore = Math.round(performance.now() - t);
    return { id, netns: netns.name, baseUrl: `http://${netns.address}:${instance.port}`, stages, stop };
  }

  /**
   * Keeps `count` fresh network namespaces ready, so a restore does not wait the ~50-100 ms of
   * making one. A namespace holds no memory and runs nothing; each is used once.
   */
  async prepareNamespaces(count: number): Promise<void> {
    while (this.#namespaces.length < count) this.#namespaces.push(await createNetworkNamespace());
  }

  /** Removes a snapshot: its overlay, its image and its folder. */
  async remove(snapshot: Pick<Snapshot, 'dir'>): Promise<void> {
    await this.#removeDir(snapshot.dir);
  }

  async #removeDir(dir: string): Promise<void> {
    if (!existsSync(dir)) return;
    await run('umount', [path.join(dir, 'rootfs')]).catch(() => undefined);
    // Podman counts its image's mounts: this snapshot's is given back.
    const image = await readFile(path.join(dir, 'image.json'), 'utf8').then(
      (text) => (JSON.parse(text) as { image: string }).image,
      () => null,
    );
    if (image) await run('podman', ['image', 'unmount', image], { env: this.#podmanEnv }).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }

  /**
   * Removes what a runner that stopped without cleaning up left in this folder (at start, like
   * the engine's sweepOrphans): its sandboxes, its instances' files and its snapshots, which no
   * deployment of the new process knows. Returns how many sandboxes and snapshots went.
   */
  async sweep(): Promise<{ sandboxes: number; snapshots: number }> {
    const state = path.join(this.root, 'state');
    let ids: string[] = [];
    if (existsSync(state)) {
      const { stdout } = await run(this.#runsc, [`--root=${state}`, 'list', '-quiet']).catch(() => ({ stdout: '' }));
      ids = stdout.split('\n').filter(Boolean);
      for (const id of ids) await this.#command(['delete', '--force', id]).catch(() => undefined);
    }
    await rm(path.join(this.root, 'instances'), { recursive: true, force: true });
    const base = path.join(this.root, 'snapshots');
    const keys = existsSync(base) ? await readdir(base) : [];
    for (const key of keys) await this.#removeDir(path.join(base, key));
    return { sandboxes: ids.length, snapshots: keys.length };
  }

  /** Snapshots on disk and their sizes (the tenant's storage counts them). */
  async list(): Promise<{ key: string; sizeBytes: number }[]> {
    const base = path.join(this.root, 'snapshots');
    if (!existsSync(base)) return [];
    const keys = await readdir(base);
    return Promise.all(
      keys.map(async (key) => ({
        key,
        sizeBytes: await stat(path.join(base, key, 'image', 'checkpoint.img')).then(
          (s) => s.size,
          () => 0,
        ),
      })),
    );
  }

  /** Ends every sandbox this object started (tests, a runner's stop). */
  async close(): Promise<void> {
    for (const child of this.#children) child.kill('SIGKILL');
    await Promise.all(this.#namespaces.splice(0).map((netns) => netns.remove()));
  }
}
