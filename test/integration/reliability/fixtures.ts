import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '../../bench/serverLaunch';
import { SERVER_ARGS } from '../../setup/server-bundle';
import { rawApi, type Target } from '../helpers';

// Fault tests (issue 34, docs/deploy.md "When the database goes away"): the platform server as a
// child process (so a crash is the child's, never the test's), a slow real HTTP service that
// counts deliveries per job, and a recorder of every answer given under load.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ServerProcess extends Target {
  child: ChildProcess;
  output(): string;
  alive(): boolean;
  exited: Promise<number | null>;
}

/**
 * A free port below Linux's ephemeral range (32768 and up) for a server that is killed and started
 * again on the same port: a port from listen(0) is an ephemeral one, which another process's
 * outgoing connection (a server's own connections to PostgreSQL) can hold when the server starts
 * or restarts on it (EADDRINUSE seen in kill-postgres.test.ts).
 */
export async function restartablePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const probe = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise((resolve) => probe.close(resolve));
      return port;
    }
  }
}

/** The server as operators run it (its bundle, built by test/setup/server-bundle.ts), on a free loopback port. */
export async function spawnServer(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  port ??= await freePort();
  let output = '';
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_REQUESTS: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200 && !/is running at/.test(output); i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!/is running at/.test(output)) throw new Error(`server did not start: ${output}`);
  const { authKey } = (await (await fetch(`${url}/config.json`)).json()) as { authKey: string };
  return { url, authKey, child, output: () => output, alive: () => child.exitCode === null && child.signalCode === null, exited };
}

/** A real HTTP service that answers each delivery after `ms`, counting deliveries per job (Idempotency-Key). */
export async function slowService(ms: number) {
  const deliveries = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    const key = String(req.headers['idempotency-key'] ?? '');
    deliveries.set(key, (deliveries.get(key) ?? 0) + 1);
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true })), ms);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deliveries,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Publishes a free HTTP service at `baseUrl` for `ownerId` straight in the schema (as jobs/fixtures' httpServiceOf). */
export async function insertHttpService(databaseUrl: string, schema: string, ownerId: string, baseUrl: string): Promise<string> {
  const id = `fault-${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path="${schema}"` });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(
      `INSERT INTO models SELECT (jsonb_populate_record(NULL::models,
        to_jsonb(m) || jsonb_build_object('id', $1::text, 'created_by', $2::text, 'is_public', true))).*
       FROM models m WHERE m.id = 'lime-diffusion-xl'`,
      [id, ownerId],
    );
    await client.query(`INSERT INTO service_runtimes (model_id, type, base_url) VALUES ($1, 'http', $2)`, [id, baseUrl]);
  } finally {
    await client.end();
  }
  return id;
}

export interface Answer {
  at: number;
  what: string;
  status: number;
  retryAfter: string | null;
  detail: unknown;
  ms: number;
}

/** Sends requests in `loops` parallel loops until stopped, recording every answer (or failure to answer). */
export function recordLoad(loops: number, request: (i: number) => Promise<{ what: string; response: Response }>) {
  const answers: Answer[] = [];
  const failures: string[] = [];
  let stopped = false;
  const started = Date.now();
  const loop = async () => {
    for (let i = 0; !stopped; i++) {
      const t = Date.now();
      try {
        const { what, response } = await request(i);
        const text = await response.text();
        let detail: unknown = text;
        try {
          detail = JSON.parse(text);
        } catch {
          // Kept as text: a 503 must be JSON, which the test checks.
        }
        answers.push({
          at: t - started,
          what,
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          detail,
          ms: Date.now() - t,
        });
      } catch (error) {
        failures.push(`${t - started} ms: ${(error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const running = Array.from({ length: loops }, loop);
  return {
    answers,
    failures,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** Creates a job; answers its id when the platform acknowledged it. */
export async function createJob(target: Target, token: string, serviceId: string, key: string) {
  const created = await rawApi(target, 'POST', '/v1/jobs', {
    token,
    headers: { 'Idempotency-Key': key },
    body: { service_id: serviceId, input: { prompt: key } },
  });
  return created.status === 201 || created.status === 200 ? String(created.json.job_id) : undefined;
}

/** A signed-in JSON POST with a client's patience (15 s), for load against a process that may die. */
export const postJson = (target: Target, token: string, route: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${target.url}${route}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
