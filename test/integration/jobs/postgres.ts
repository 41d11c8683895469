import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// A PostgreSQL for the queue tests: DATABASE_URL when set, else a throw-away cluster made with
// the Debian `postgresql` package's initdb (as the postgres user when running as root). When
// neither is possible, `skip` says how to run the tests.

/** `dataDir`: the throw-away cluster's data directory (none for DATABASE_URL). */
export type TestPostgres =
  | {
      url: string;
      dataDir?: string;
      /** The throw-away cluster only: `pg_ctl restart|stop|start` (fault tests restart it under load). */
      ctl?(action: 'restart' | 'stop' | 'start'): void;
      stop(): Promise<void>;
    }
  | { skip: string };

const HOW = 'install PostgreSQL (apt-get install postgresql) or set DATABASE_URL=postgres://… to run it';

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, 'bin')).find((dir) => existsSync(path.join(dir, 'initdb')));
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export async function testPostgres(): Promise<TestPostgres> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  const bin = binDir();
  if (!bin) return { skip: `no PostgreSQL server found: ${HOW}` };
  const asRoot = process.getuid?.() === 0;
  if (asRoot && spawnSync('id', ['postgres']).status !== 0) return { skip: `running as root without a postgres user: ${HOW}` };
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });
  const dir = mkdtempSync(path.join(tmpdir(), 'limelight-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const ctl = (action: 'restart' | 'stop' | 'start') =>
    void run('pg_ctl', ['-D', path.join(dir, 'data'), '-l', path.join(dir, 'log'), '-w', '-m', 'fast', '-o', options, action]);
  try {
    run('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
    ctl('start');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `could not start a throw-away PostgreSQL (${(error as Error).message.split('\n')[0]}): ${HOW}` };
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir: path.join(dir, 'data'),
    ctl,
    async stop() {
      try {
        run('pg_ctl', ['-D', path.join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
