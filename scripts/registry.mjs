// A loopback container registry for the hosting tests and for trying the whole path by hand
// (docs/publishing.md, "Build, push, deploy, run"): Debian's docker-registry (CNCF Distribution)
// on 127.0.0.1 with htpasswd (bcrypt) auth and a throwaway storage directory.
//
//   node scripts/registry.mjs [port]     runs one in the foreground and prints how to log in
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BINARY = '/usr/bin/docker-registry';

/** Why no registry can start here, or null. */
export function registryUnavailableReason() {
  const r = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return 'docker-registry is not installed (apt-get install docker-registry)';
  const h = spawnSync('htpasswd', ['-h'], { encoding: 'utf8' });
  if (h.error) return 'htpasswd is not installed (apt-get install apache2-utils)';
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, child, logs) {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited: ${logs()}`);
    try {
      const res = await fetch(url);
      // 401 is the answer of a registry that requires a login: it is up.
      if (res.status === 401 || res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 15_000) throw new Error(`docker-registry did not answer within 15 s: ${logs()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts a registry on a free loopback port with one htpasswd user. Returns its host:port,
 * the credentials and stop() (which also deletes the stored images).
 */
export async function startRegistry({ port, username = 'publisher', password = randomBytes(12).toString('hex') } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'limelight-registry-'));
  const listen = port ?? (await freePort());
  const host = `127.0.0.1:${listen}`;
  const htpasswd = execFileSync('htpasswd', ['-Bbn', username, password], { encoding: 'utf8' });
  writeFileSync(path.join(dir, 'htpasswd'), htpasswd);
  writeFileSync(
    path.join(dir, 'config.yml'),
    [
      'version: 0.1',
      'log: { level: error }',
      `storage: { filesystem: { rootdirectory: ${JSON.stringify(path.join(dir, 'data'))} }, delete: { enabled: true } }`,
      `http: { addr: "${host}", secret: "${randomBytes(16).toString('hex')}" }`,
      `auth: { htpasswd: { realm: limelight-test, path: ${JSON.stringify(path.join(dir, 'htpasswd'))} } }`,
      '',
    ].join('\n'),
  );
  const child = spawn(BINARY, ['serve', path.join(dir, 'config.yml')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  try {
    await waitForHttp(`http://${host}/v2/`, child, () => stderr.trim());
  } catch (error) {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    host,
    username,
    password,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const reason = registryUnavailableReason();
  if (reason) {
    console.error(reason);
    process.exit(1);
  }
  const registry = await startRegistry({ port: process.argv[2] ? Number(process.argv[2]) : undefined });
  console.log(
    `Registry on ${registry.host}\n  user: ${registry.username}\n  password: ${registry.password}\n\n` +
      `  podman login --tls-verify=false -u ${registry.username} -p ${registry.password} ${registry.host}\n`,
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void registry.stop().then(() => process.exit(0)));
}
