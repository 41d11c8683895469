// Child processes for test/bench/server.bench.ts: the platform server as operators run it
// (`node dist/server/main.mjs`, built first) and the bare node:http yardstick.
import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Launched {
  url: string;
  kind: string;
  /** The server's process (with WORKERS, the primary; its workers are its children). */
  pid: number;
  close(): Promise<void>;
}

/** Linux's clock ticks per second (USER_HZ), the unit of CPU times in /proc/<pid>/stat. */
const TICKS_PER_SECOND = 100;

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After "pid (name) ": state is field 3, utime field 14 and stime field 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let ticks = Number(fields[11]) + Number(fields[12]);
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
      ticks += cpuTicks(Number(child));
    }
  }
  return ticks;
}

/**
 * CPU seconds (user + system) a server and its child processes have used so far, from /proc;
 * undefined where there is none. Unlike requests per second, CPU per request hardly depends on
 * what else runs on the machine.
 */
export function cpuSeconds(pid: number): number | undefined {
  try {
    return cpuTicks(pid) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** A loopback port nobody listens on (also used by test/integration/process.test.ts). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not answer /health within 60 s:\n${output()}`);
}

/** The server's command line: the production build unless BENCH_SERVER=source. */
function serverCommand(): string[] {
  // BENCH_CPU_PROF=<dir>: write a V8 CPU profile per server process on exit (open in Chrome
  // DevTools, Performance tab) to see where a request's time goes.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  if (process.env.BENCH_SERVER === 'source') return [...profile, '--conditions=source', '--import', 'tsx', 'reference-app/server/main.ts'];
  const builder = path.join(root, 'scripts/build-server.mjs');
  if (existsSync(builder)) execFileSync(process.execPath, [builder], { cwd: root, stdio: 'inherit' });
  return [...profile, path.join(root, 'dist/server/main.mjs')];
}

export async function launchPlatformServer({ workers }: { workers: number }): Promise<Launched> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'limelight-bench-'));
  const databaseUrl = process.env.DATABASE_URL;
  const schema = databaseUrl ? `lime_bench_${randomBytes(6).toString('hex')}` : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    WORKERS: String(workers),
    LOG_REQUESTS: 'false',
    NODE_ENV: 'production',
    // Production refuses to start without these (docs/deploy.md). The bench sends no mail and
    // takes no payment, so an unused SMTP address and the sandbox provider are enough.
    SMTP_URL: process.env.SMTP_URL ?? 'smtp://127.0.0.1:9',
    LIMELIGHT_SECRET_KEY: process.env.LIMELIGHT_SECRET_KEY ?? randomBytes(32).toString('hex'),
    PAYMENT_PROVIDER: process.env.PAYMENT_PROVIDER ?? 'sandbox',
    MAILER_AUTOCONFIRM: 'true',
    ...(schema ? { DATABASE_SCHEMA: schema } : {}),
  };
  for (const key of Object.keys(env)) if (key.startsWith('RATE_LIMIT_') && key !== 'RATE_LIMIT_WINDOW') delete env[key];
  Object.assign(env, { RATE_LIMIT_SIGN_IN: '0', RATE_LIMIT_TOKEN_REFRESH: '0' });
  let output = '';
  const child = spawn(process.execPath, serverCommand(), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  await waitHealthy(url, child, () => output);
  return {
    url,
    kind: databaseUrl ? 'PostgreSQL' : 'PGlite',
    pid: child.pid!,
    async close() {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl && schema) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    },
  };
}

export async function launchBareServer(routes: unknown): Promise<Launched> {
  // With BENCH_CPU_PROF, the yardstick's own profile goes to <dir>/bare, to compare with.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF, 'bare')}`] : [];
  const child = spawn(process.execPath, [...profile, path.join(root, 'test/bench/serverBare.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(Number(/listening (\d+)/.exec(String(d))?.[1])));
    child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
    child.stdin!.end(JSON.stringify(routes));
  });
  return { url: `http://127.0.0.1:${port}`, kind: 'bare', pid: child.pid!, close: () => stopChild(child) };
}
