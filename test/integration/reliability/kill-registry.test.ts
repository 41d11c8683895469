import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podmanUnavailableReason, startPodmanService } from '../../../scripts/engine.mjs';
import { pidFileOf, REGISTRY_BINARY, socketPathOf, statusOverSocket } from '../../../reference-app/server/registry';
import { freePort } from '../../bench/serverLaunch';
import { type ServerProcess, spawnServer } from './fixtures';

// The platform's registry never outlives its server (docs/publishing.md, "The platform's
// registry"): a server killed with SIGKILL takes its docker-registry with it; a registry an
// earlier server left behind on the same DATA_DIR is reclaimed at the next start; and a server
// whose registry address is taken says so once, with the cause and the fix, instead of retrying
// every 2 s for ever. The servers run with the runner on (the registry is part of hosting), on
// Podman's Docker API; no container is started.

const missing =
  podmanUnavailableReason() ??
  (spawnSync(REGISTRY_BINARY, ['--version']).status === 0 ? null : 'docker-registry is not installed (apt-get install docker-registry)');
if (missing) console.warn(`registry process tests skipped: ${missing}; run them as root with Podman and docker-registry, as .ci/run does`);

const dirs: string[] = [];
const servers: ServerProcess[] = [];
const strays: number[] = [];
let engine: { dockerHost: string; stop(): Promise<void> } | undefined;

beforeAll(async () => {
  if (missing) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'lime-kill-registry-engine-'));
  dirs.push(dir);
  engine = await startPodmanService(path.join(dir, 'podman.sock'));
}, 60_000);

afterAll(async () => {
  for (const server of servers) server.child.kill('SIGKILL');
  for (const pid of strays) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await engine?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms; await sleep(50)) if (check()) return true;
  return check();
}

/** A server with the runner and its registry on, in a data directory of its own. */
async function serverWithRegistry(addr: string, dataDir = mkdtempSync(path.join(tmpdir(), 'lime-kill-registry-'))) {
  if (!dirs.includes(dataDir)) dirs.push(dataDir);
  const server = await spawnServer({
    DATA_DIR: dataDir,
    CONTAINER_RUNNER: 'docker',
    DOCKER_HOST: engine!.dockerHost,
    PLATFORM_REGISTRY: 'on',
    PLATFORM_REGISTRY_ADDR: addr,
  });
  servers.push(server);
  return { server, dataDir };
}

const registryPid = (dataDir: string) => Number(readFileSync(pidFileOf(path.join(dataDir, 'registry')), 'utf8'));

describe.skipIf(missing)("the platform's registry process", () => {
  it('goes with its server when the server is killed with SIGKILL', { timeout: 60_000 }, async () => {
    const addr = `127.0.0.1:${await freePort()}`;
    const { server, dataDir } = await serverWithRegistry(addr);
    const pid = registryPid(dataDir);
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain(REGISTRY_BINARY);
    expect((await fetch(`http://${addr}/v2/`)).status).toBe(401);

    server.child.kill('SIGKILL');
    await server.exited;
    expect(await until(() => !alive(pid), 10_000), `docker-registry ${pid} still runs after its server was killed`).toBe(true);
    await expect(fetch(`http://${addr}/v2/`)).rejects.toThrow();
  });

  it('is reclaimed by the next server on the same DATA_DIR when one was left running', { timeout: 90_000 }, async () => {
    const addr = `127.0.0.1:${await freePort()}`;
    const { server, dataDir } = await serverWithRegistry(addr);
    await new Promise((resolve) => (server.child.once('exit', resolve), server.child.kill('SIGTERM')));
    // What a killed server leaves on a host without setpriv: a registry serving this DATA_DIR's
    // config, detached from any server, and its pid in the pid file.
    const config = path.join(dataDir, 'registry', 'config.yml');
    const stray = spawn(REGISTRY_BINARY, ['serve', config], { detached: true, stdio: 'ignore' });
    stray.unref();
    strays.push(stray.pid!);
    writeFileSync(pidFileOf(path.join(dataDir, 'registry')), `${stray.pid}\n`);
    // It listens on the registry's own unix socket (the server's proxy, gone now, held addr).
    const socket = socketPathOf(path.join(dataDir, 'registry'));
    for (let i = 0; i < 100 && !(await statusOverSocket(socket, '/v2/')); i++) await sleep(100);
    expect(await statusOverSocket(socket, '/v2/'), 'the stray registry answers').toBe(401);

    const again = await serverWithRegistry(addr, dataDir);
    expect(again.server.output()).toMatch(/stopping the platform registry \(pid \d+\) that an earlier server/);
    expect(alive(stray.pid!)).toBe(false);
    const pid = registryPid(dataDir);
    expect(pid).not.toBe(stray.pid);
    expect(alive(pid)).toBe(true);
    expect((await fetch(`http://${addr}/v2/`)).status).toBe(401);
  });

  it('says once, with the cause and the fix, that its address is taken, and does not retry', { timeout: 90_000 }, async () => {
    const addr = `127.0.0.1:${await freePort()}`;
    const first = await serverWithRegistry(addr);
    const second = await serverWithRegistry(addr);
    // Longer than the old supervisor's 2 s retry pause, twice over.
    await sleep(5_000);
    const said = second.server.output();
    expect(said).toMatch(new RegExp(`${addr.replace(/\./g, '\\.')} is already in use by another docker-registry`));
    expect(said).toMatch(/PLATFORM_REGISTRY_ADDR/);
    expect(said.match(/already in use/g)).toHaveLength(1);
    expect(said).not.toMatch(/restarting it in 2 s/);
    expect(existsSync(pidFileOf(path.join(second.dataDir, 'registry')))).toBe(false);
    // The first server's registry is untouched.
    expect(alive(registryPid(first.dataDir))).toBe(true);
  });
});
