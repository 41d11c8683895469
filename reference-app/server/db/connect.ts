import { Kysely, PostgresDialect, sql, type PostgresPool } from 'kysely';
import pg from 'pg';
import { DatabaseHealth } from './health';
import { pgliteDialect } from './pgliteDialect';
import { PGliteThread } from './pgliteThread';
import { preparedNameOf } from './prepared';
import type { Database, Db } from './types';

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Whether the database answers, its connection errors and reconnects (db/health.ts). */
  health: DatabaseHealth;
  /** Whether `select 1` answers within `timeoutMs` (PGlite: whether its instance is open). */
  ping(timeoutMs: number): Promise<boolean>;
  /** PGlite's worker thread (fault tests end it as a crash would). */
  pgliteThread?: PGliteThread;
  /** PostgreSQL's pool: connections open, idle and requests waiting for one (for /metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** LISTENs on a channel (docs/deploy.md, "Caching"); resolves to the function that stops. */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface NotificationHandlers {
  notify(payload: string): void;
  /** The listening connection broke: notifications may be missed until `restored`. */
  lost?(): void;
  restored?(): void;
}

export interface OpenDatabaseOptions {
  /** PGlite data directory; omitted means in memory. Ignored when databaseUrl is set. */
  dataDir?: string;
  databaseUrl?: string;
  /** PostgreSQL schema holding every table (created when missing). */
  schema?: string;
  /** PostgreSQL: send the statements marked with `prepared()` as named statements (default true). */
  preparedStatements?: boolean;
  /** PGlite only: skip fsync; for throw-away databases. */
  relaxedDurability?: boolean;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** Channels are interpolated into LISTEN: only plain lower-case identifiers are accepted. */
function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`Invalid notification channel ${JSON.stringify(channel)}`);
}

// Both drivers must hand back the same JS types (PGlite's in db/pgliteWorker.mjs): int8 and numeric as numbers (credits and run
// counts stay far below 2^53), dates as 'YYYY-MM-DD' strings, timestamps as Date.
const OID = { int8: 20, numeric: 1700, date: 1082 } as const;
const toNumber = (value: string) => Number(value);
const identity = (value: string) => value;

async function openPglite(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  /** Listeners per channel (a restarted PGlite thread LISTENs on them again). */
  const listening = new Map<string, number>();
  // In a worker thread of its own, so that its statements never stall this event loop
  // (db/pgliteThread.ts); the worker parses int8/numeric/date as the PostgreSQL path below does.
  const client = await PGliteThread.start({
    dataDir: options.dataDir,
    relaxedDurability: options.relaxedDurability ?? false,
    channels: () => listening.keys(),
  });
  const health = new DatabaseHealth(() => client.query('select 1'));
  const db = new Kysely<Database>({ dialect: pgliteDialect(client, health) });
  return {
    db,
    kind: 'pglite',
    health,
    pgliteThread: client,
    // In this process, behind one connection a long transaction may hold: a query would measure
    // that wait, not whether the database is there.
    ping: async () => !client.closed && health.available,
    // One backend in this process: notifications cannot be lost to a broken connection.
    // LISTEN goes through Kysely so it waits for the connection like any query (PGlite's own
    // listen() would run it inside whichever transaction holds the single connection).
    // Several listeners may share a channel (the catalogue cache and the job service both hear
    // catalogue writes): the channel is UNLISTENed only when its last listener stops.
    async listen(channel, handlers) {
      checkChannel(channel);
      listening.set(channel, (listening.get(channel) ?? 0) + 1);
      await sql.raw(`LISTEN ${channel}`).execute(db);
      const off = client.onNotification((name, payload) => {
        if (name === channel) handlers.notify(payload);
      });
      return async () => {
        off();
        const left = (listening.get(channel) ?? 1) - 1;
        if (left > 0) return void listening.set(channel, left);
        listening.delete(channel);
        if (!client.closed) await sql.raw(`UNLISTEN ${channel}`).execute(db);
      };
    },
    close: () => (health.close(), db.destroy()),
  };
}

/** A connection is given up on after this long, so a request never waits past it for an unreachable database. */
const CONNECT_TIMEOUT_MS = 5_000;

async function openPostgres(url: string, schema: string | undefined, preparedStatements: boolean): Promise<DatabaseHandle> {
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === OID.int8 || oid === OID.numeric) return toNumber;
      if (oid === OID.date) return identity;
      return pg.types.getTypeParser(oid, format);
    },
  };
  if (schema) {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    try {
      await setup.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: types as pg.CustomTypesConfig,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A peer that vanished without a word (a network partition) is noticed by TCP keepalive.
    keepAlive: true,
    ...(schema ? { options: `-c search_path="${schema}"` } : {}),
  });
  const health = new DatabaseHealth(() => pool.query('select 1'));
  // Neither pg-pool (while a client is checked out) nor Kysely listens for a client's 'error':
  // without these, a server that goes away mid-query is an unhandled 'error' event that ends the
  // process. The failed query rejects on its own; the pool drops the broken client.
  pool.on('connect', (client) => client.on('error', (error) => health.failed(error)));
  pool.on('error', (error) => health.failed(error));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: watchedPool(pool, health, preparedStatements) }) });
  await sql`select 1`.execute(db);
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    kind: 'postgres',
    health,
    async ping(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('Connection terminated: no answer to select 1 in time')), timeoutMs);
      });
      try {
        await Promise.race([sql`select 1`.execute(db), timeout]);
        return true;
      } catch (error) {
        health.failed(error);
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async listen(channel, handlers) {
      checkChannel(channel);
      const stop = await listenPostgres(url, channel, handlers);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    async close() {
      health.close();
      await Promise.all([...listeners].map((stop) => stop()));
      await db.destroy();
    },
  };
}

/**
 * The pool as Kysely sees it: every connect and query reports to `health`, and with
 * `preparedStatements` each client sends marked statements as named ones (db/prepared.ts).
 */
function watchedPool(pool: pg.Pool, health: DatabaseHealth, preparedStatements: boolean): PostgresPool {
  const patched = new WeakSet<pg.PoolClient>();
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        health.failed(error);
        throw error;
      }
      if (patched.has(client)) return client;
      patched.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      client.query = ((text: unknown, values?: unknown) => {
        const name = preparedStatements && typeof text === 'string' ? preparedNameOf(text) : undefined;
        return (name ? query({ name, text, values }) : query(text, values)).then(
          (result) => (health.succeeded(), result),
          (error: unknown) => {
            health.failed(error);
            throw error;
          },
        );
      }) as typeof client.query;
      return client;
    },
    end: () => pool.end(),
  };
}

/** First and longest delay before reconnecting a broken LISTEN connection (doubling in between). */
const RELISTEN_FIRST_MS = 250;
const RELISTEN_MAX_MS = 5_000;

/** A dedicated connection that LISTENs (a pooled one would lose it), reconnecting when it breaks. */
async function listenPostgres(url: string, channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.notify(message.payload ?? '');
    });
    next.on('error', () => broken(next));
    next.on('end', () => broken(next));
    try {
      await next.connect();
      await next.query(`LISTEN "${channel}"`);
    } catch (error) {
      next.end().catch(() => {});
      throw error;
    }
    if (stopped) return void next.end().catch(() => {});
    client = next;
  };
  const broken = (which: pg.Client) => {
    if (stopped || client !== which) return;
    client = undefined;
    handlers.lost?.();
    which.end().catch(() => {});
    // Reconnects with backoff; `restored` tells the listener to re-read what it may have missed
    // (the job worker claims at once, so no queued job waits for the poll).
    let delay = RELISTEN_FIRST_MS;
    const again = () => {
      retry = setTimeout(() => {
        if (stopped) return;
        connect().then(
          () => handlers.restored?.(),
          () => {
            delay = Math.min(RELISTEN_MAX_MS, delay * 2);
            again();
          },
        );
      }, delay);
      retry.unref();
    };
    again();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

export function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.schema, options.preparedStatements ?? true) : openPglite(options);
}

/** Drops a schema made for a throw-away server (tests against a real PostgreSQL). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
