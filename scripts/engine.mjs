// The container engine for the hosting runner (docs/publishing.md, "Running containers"):
// Podman's Docker-compatible API on a unix socket, configured by deploy/podman/containers.conf.
//
//   node scripts/engine.mjs [socket]   starts `podman system service` and prints DOCKER_HOST
//   node scripts/engine.mjs [socket] --sandbox gvisor
//                                      the same, every container under gVisor's runsc
//                                      (docs/security.md, "Sandbox tiers")
//   import { startPodmanService }      the same from tests and benchmarks
//
// Docker users need none of this: point DOCKER_HOST at the Docker daemon's socket instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import path from 'node:path';
import { projectRoot } from './source-aliases.mjs';

export const CONTAINERS_CONF = path.join(projectRoot, 'deploy/podman/containers.conf');
export const REGISTRIES_CONF = path.join(projectRoot, 'deploy/podman/registries.conf');
/**
 * runsc with the flags this host needs: the ptrace platform (no KVM), and the network of the
 * container's own namespace through the host kernel (runsc 20221219's netstack setup mistakes
 * every namespace for the root one on kernels that made net.core.rmem_default per namespace).
 */
export const RUNSC_SANDBOX = path.join(projectRoot, 'deploy/podman/runsc-sandbox');

/** Why the gVisor tier cannot run here, or null (runsc is Debian's `runsc` package). */
export function runscUnavailableReason() {
  const runsc = spawnSync('runsc', ['--version'], { encoding: 'utf8' });
  if (runsc.error || runsc.status !== 0) return 'runsc is not installed (apt-get install runsc)';
  return null;
}

/** The environment Podman's own commands (build, push, ps) need to use the project's settings. */
export function podmanEnv() {
  return {
    ...process.env,
    CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? CONTAINERS_CONF,
    CONTAINERS_REGISTRIES_CONF: process.env.CONTAINERS_REGISTRIES_CONF ?? REGISTRIES_CONF,
  };
}

/** Why the engine cannot run here, or null when Podman (as root) is usable. */
export function podmanUnavailableReason() {
  const which = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (which.error || which.status !== 0) return 'podman is not installed (apt-get install podman runc)';
  if (process.getuid?.() !== 0) return 'the runner tests drive rootful Podman: run them as root (CI does)';
  const runc = spawnSync('runc', ['--version'], { encoding: 'utf8' });
  if (runc.error || runc.status !== 0) return 'runc is not installed (apt-get install runc)';
  return null;
}

function ping(socketPath) {
  return new Promise((resolve) => {
    const req = request({ socketPath, path: '/_ping', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

/**
 * The command that runs `podman system service` with the CDI specifications of `cdiSpecDir` and
 * no others (the GPU test's stand-in devices; docs/publishing.md, "Resources"). Debian's podman
 * 4.3 reads CDI specifications only from /etc/cdi and /var/run/cdi (no `cdi_spec_dirs`, no
 * `--cdi-spec-dir`), so the service runs in a mount namespace of its own where /etc is an overlay
 * whose /etc/cdi holds copies of them: the host's /etc is untouched, and the namespace, overlay
 * included, goes when the service exits. Mounts the host makes still reach the service (slave).
 */
function cdiServiceCommand(cdiSpecDir, podmanArgs) {
  const work = mkdtempSync(path.join(tmpdir(), 'limelight-cdi-etc-'));
  mkdirSync(path.join(work, 'upper'));
  mkdirSync(path.join(work, 'work'));
  const quote = (s) => `'${String(s).replaceAll("'", `'\\''`)}'`;
  const script = [
    `mount -t overlay overlay -o lowerdir=/etc,upperdir=${quote(path.join(work, 'upper'))},workdir=${quote(path.join(work, 'work'))} /etc`,
    'rm -rf /etc/cdi && mkdir -p /etc/cdi',
    `cp ${quote(cdiSpecDir)}/* /etc/cdi/`,
    `exec podman ${podmanArgs.map(quote).join(' ')}`,
  ].join(' && ');
  return {
    command: 'unshare',
    args: ['--mount', '--propagation', 'slave', 'sh', '-c', script],
    cleanup: () => rmSync(work, { recursive: true, force: true }),
  };
}

/**
 * Starts Podman's Docker-compatible API on `socketPath` and waits until it answers.
 * Returns the DOCKER_HOST value and a stop function that ends the service (containers it
 * started keep running: removing them is the runner's job). `env` adds to the service's
 * environment (a test gives it an XDG_RUNTIME_DIR of its own, whose containers/auth.json is the
 * login file the service reads instead of the host's /run/containers/0/auth.json).
 */
export async function startPodmanService(socketPath, { sandbox = 'none', env = {}, cdiSpecDir } = {}) {
  mkdirSync(path.dirname(socketPath), { recursive: true });
  rmSync(socketPath, { force: true });
  // Podman's Docker API ignores HostConfig.Runtime, so the sandbox is the service's own runtime.
  const runtime = sandbox === 'gvisor' ? ['--runtime', RUNSC_SANDBOX] : [];
  const podmanArgs = [...runtime, 'system', 'service', '--time=0', `unix://${socketPath}`];
  // `cdiSpecDir`: the service sees those CDI specifications only (cdiServiceCommand).
  const cdi = cdiSpecDir ? cdiServiceCommand(cdiSpecDir, podmanArgs) : null;
  const child = spawn(cdi ? cdi.command : 'podman', cdi ? cdi.args : podmanArgs, {
    env: { ...podmanEnv(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (cdi) child.once('exit', cdi.cleanup);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const started = Date.now();
  while (!(existsSync(socketPath) && (await ping(socketPath)))) {
    if (child.exitCode !== null) throw new Error(`podman system service exited: ${stderr.trim()}`);
    // Its start takes Podman's storage lock, which another engine's large pull or build can hold
    // for tens of seconds on a busy host (a CI run once timed out five services at 20 s).
    if (Date.now() - started > 60_000) {
      child.kill();
      throw new Error(`podman system service did not answer on ${socketPath} within 60 s: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    dockerHost: `unix://${socketPath}`,
    socketPath,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const reason = podmanUnavailableReason();
  if (reason) {
    console.error(reason);
    process.exit(1);
  }
  const args = process.argv.slice(2);
  const sandboxAt = args.indexOf('--sandbox');
  const sandbox = sandboxAt >= 0 ? args.splice(sandboxAt, 2)[1] : 'none';
  const socketPath = args[0] ?? '/run/limelight/podman.sock';
  const service = await startPodmanService(socketPath, { sandbox });
  const env = sandbox === 'gvisor' ? ' CONTAINER_SANDBOX=gvisor' : '';
  console.log(`Podman's Docker API is up. In another shell:\n\n  export CONTAINER_RUNNER=docker DOCKER_HOST=${service.dockerHost}${env}\n`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void service.stop().then(() => process.exit(0)));
}
