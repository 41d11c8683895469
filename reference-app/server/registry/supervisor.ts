import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { log } from '../log';
import { REGISTRY_ISSUER, REGISTRY_SERVICE } from './tokens';

// Runs Debian's docker-registry (CNCF Distribution) beside the platform: token auth whose realm
// is the platform's token endpoint, storage in DATA_DIR/registry/data, listening on a unix socket
// (DATA_DIR/registry/registry.sock) that only the platform's proxy uses: the proxy listens on
// PLATFORM_REGISTRY_ADDR and counts what is written (registry/proxy.ts; docs/publishing.md, "The
// platform's registry").
//
// The registry never outlives its server. It is started through util-linux's setpriv with a
// parent-death signal, so the kernel stops it when the server dies however it dies (SIGKILL, an
// out-of-memory kill, a crash); its pid is also recorded in DATA_DIR/registry/registry.pid, and
// the next start reclaims a registry that file names (for a host without setpriv). A registry
// that exits on its own is restarted while it keeps coming up; one that cannot start says so once,
// with the cause and the fix, and stays down instead of retrying for ever.

export const REGISTRY_BINARY = '/usr/bin/docker-registry';
const SETPRIV = '/usr/bin/setpriv';

/** Restarts in a row, each after RESTART_PAUSE_MS, before the supervisor gives up and says why. */
const MAX_QUICK_RESTARTS = 3;
const RESTART_PAUSE_MS = 2_000;
/** A registry up this long before it exited is restarted afresh (its count of quick restarts reset). */
const STABLE_AFTER_MS = 60_000;

export interface RegistryProcessOptions {
  /** docker-registry's unix socket (socketPathOf). */
  socket: string;
  realm: string;
  dir: string;
  certPath: string;
}

export const storageDirOf = (dir: string) => path.join(dir, 'data');
export const pidFileOf = (dir: string) => path.join(dir, 'registry.pid');

/**
 * docker-registry's unix socket: in DATA_DIR/registry (mode 0700), or, when that path is longer
 * than a socket's address may be, in a folder of mode 0700 under the temporary directory.
 */
export function socketPathOf(dir: string): string {
  const beside = path.join(dir, 'registry.sock');
  if (Buffer.byteLength(beside) <= 100) return beside;
  const short = path.join(tmpdir(), `limelight-registry-${createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 12)}`);
  mkdirSync(short, { recursive: true, mode: 0o700 });
  return path.join(short, 'registry.sock');
}

function configYaml(options: RegistryProcessOptions): string {
  const q = JSON.stringify;
  return [
    'version: 0.1',
    'log: { level: error }',
    `storage: { filesystem: { rootdirectory: ${q(storageDirOf(options.dir))} }, delete: { enabled: true },`,
    // The proxy removes an upload idle for PLATFORM_REGISTRY_UPLOAD_IDLE_S; this is Distribution's
    // own sweep behind it (its first run comes up to an hour after start, then every hour).
    '  maintenance: { uploadpurging: { enabled: true, age: 24h, interval: 1h, dryrun: false } } }',
    `http: { net: unix, addr: ${q(options.socket)}, secret: ${q(randomBytes(16).toString('hex'))} }`,
    'auth:',
    '  token:',
    `    realm: ${q(options.realm)}`,
    `    service: ${q(REGISTRY_SERVICE)}`,
    `    issuer: ${q(REGISTRY_ISSUER)}`,
    `    rootcertbundle: ${q(options.certPath)}`,
    '',
  ].join('\n');
}

/** The command line of a live process, or null when there is none with that pid. */
function commandLineOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return null;
  }
}

const alive = (pid: number) => commandLineOf(pid) !== null;

/**
 * Stops a registry that an earlier server on this DATA_DIR started and did not stop (it was
 * killed on a host without setpriv, or the pid file is all that is left). Only a docker-registry
 * serving this directory's config is touched; a pid now used by another program is left alone.
 */
async function reclaimStale(dir: string, config: string): Promise<void> {
  const file = pidFileOf(dir);
  if (!existsSync(file)) return;
  const pid = Number(readFileSync(file, 'utf8').trim());
  rmSync(file, { force: true });
  const command = Number.isSafeInteger(pid) && pid > 1 ? commandLineOf(pid) : null;
  if (!command?.includes(REGISTRY_BINARY) || !command.includes(config)) return;
  log.warn(`stopping the platform registry (pid ${pid}) that an earlier server on ${dir} left running`);
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; alive(pid) && waited < 5_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

/** Whether something already listens on `addr` (host:port): the registry's proxy could not bind it. */
export function addressTaken(addr: string): Promise<boolean> {
  const at = addr.lastIndexOf(':');
  const host = addr.slice(0, at).replace(/^\[|\]$/g, '');
  const port = Number(addr.slice(at + 1));
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/** Why the registry cannot start on `addr`, in words an operator can act on. */
export async function addressInUse(addr: string): Promise<string> {
  const answer = await fetch(`http://${addr}/v2/`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
  const holder = answer?.headers.get('docker-distribution-api-version')
    ? 'another docker-registry (one a killed server left behind, or another server on this machine)'
    : 'another program';
  const port = addr.slice(addr.lastIndexOf(':') + 1);
  return (
    `${addr} is already in use by ${holder}. Stop it (\`ss -ltnp 'sport = :${port}'\` names it), ` +
    'or give this server a free loopback port with PLATFORM_REGISTRY_ADDR, or turn the registry off with PLATFORM_REGISTRY=off'
  );
}

/** The status of a GET over a unix socket, or null when nothing answers there. */
export function statusOverSocket(socketPath: string, path: string): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get({ socketPath, path, timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

export class RegistryProcess {
  private child: ChildProcess | null = null;
  private stopping = false;
  private stderr = '';
  private quickRestarts = 0;
  private readOnly = false;
  private readonly config: string;

  constructor(private readonly options: RegistryProcessOptions) {
    this.config = path.join(options.dir, 'config.yml');
  }

  /** Starts it and waits until /v2/ answers (401: it wants a token, so it is up). */
  async start(): Promise<void> {
    mkdirSync(storageDirOf(this.options.dir), { recursive: true });
    await reclaimStale(this.options.dir, this.config);
    writeFileSync(this.config, configYaml(this.options), { mode: 0o600 });
    const child = this.spawn();
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`docker-registry exited: ${this.stderr.trim()}`);
      const status = await statusOverSocket(this.options.socket, '/v2/');
      if (status === 401 || status === 200) return;
      if (Date.now() - started > 15_000) throw new Error(`docker-registry did not answer within 15 s: ${this.stderr.trim()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private spawn(): ChildProcess {
    // setpriv execs the registry with PR_SET_PDEATHSIG: SIGTERM reaches it when this process dies.
    const [command, args] = existsSync(SETPRIV)
      ? [SETPRIV, ['--pdeathsig', 'SIGTERM', '--', REGISTRY_BINARY, 'serve', this.config]]
      : [REGISTRY_BINARY, ['serve', this.config]];
    // Read-only while garbage is collected (whileReadOnly), set in its environment: one config file for both modes.
    const env = this.readOnly ? { ...process.env, REGISTRY_STORAGE_MAINTENANCE_READONLY: '{"enabled":true}' } : undefined;
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    const since = Date.now();
    this.child = child;
    this.stderr = '';
    if (child.pid) writeFileSync(pidFileOf(this.options.dir), `${child.pid}\n`);
    child.stderr?.on('data', (d) => (this.stderr = (this.stderr + d).slice(-4000)));
    child.on('exit', (code, signal) => {
      if (this.stopping || this.child !== child) return;
      rmSync(pidFileOf(this.options.dir), { force: true });
      this.quickRestarts = Date.now() - since >= STABLE_AFTER_MS ? 0 : this.quickRestarts + 1;
      void this.restart(code ?? signal);
    });
    return child;
  }

  /** After an unexpected exit: up again in 2 s, unless it keeps failing. */
  private async restart(exit: number | string | null): Promise<void> {
    const cause = this.stderr.trim().split('\n').at(-1) ?? '';
    if (this.quickRestarts > MAX_QUICK_RESTARTS) {
      log.error(
        { exit, stderr: this.stderr.slice(-500) },
        `the platform registry exited ${MAX_QUICK_RESTARTS + 1} times in a row (${cause}); it stays down until the server restarts: ` +
          `check ${this.config} and ${REGISTRY_BINARY}, or set PLATFORM_REGISTRY=off`,
      );
      return;
    }
    log.warn({ exit, stderr: this.stderr.slice(-500) }, `docker-registry exited (${cause}); restarting it in 2 s`);
    await new Promise((r) => setTimeout(r, RESTART_PAUSE_MS).unref());
    if (this.stopping) return;
    this.spawn();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    rmSync(pidFileOf(this.options.dir), { force: true });
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }

  /**
   * Runs `work`, handed the config file, while the registry serves read-only (Distribution's
   * storage.maintenance.readonly: pulls served, pushes answered 405), then serves read-write
   * again: the window in which garbage is collected (garbageCollect.ts). Each switch is a restart.
   */
  async whileReadOnly<T>(work: (config: string) => Promise<T>): Promise<T> {
    try {
      await this.restartAs(true);
      return await work(this.config);
    } finally {
      await this.restartAs(false);
    }
  }

  private async restartAs(readOnly: boolean): Promise<void> {
    const child = this.child;
    this.child = null; // its exit is no crash to restart from
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (this.stopping) throw new Error('the platform registry is stopping');
    this.readOnly = readOnly;
    await this.start();
  }
}
