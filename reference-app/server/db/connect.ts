import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql, type PostgresPool } from 'kysely';
import pg from 'pg';
import { log } from '../log';
import { pgliteDialect } from './pgliteDialect';
import { preparedNameOf } from './prepared';
import type { Database, Db } from './types';

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
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

// Both drivers must hand back the same JS types: int8 and numeric as numbers (credits and run
// counts stay far below 2^53), dates as 'YYYY-MM-DD' strings, timestamps as Date.
const OID = { int8: 20, numeric: 1700, date: 1082 } as const;
const toNumber = (value: string) => Number(value);
const identity = (value: string) => value;

async function openPglite(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    relaxedDurability: options.relaxedDurability ?? false,
    parsers: { [OID.int8]: toNumber, [OID.numeric]: toNumber, [OID.date]: identity },
  });
  const db = new Kysely<Database>({ dialect: pgliteDialect(client) });
  /** Listeners per channel. */
  const listening = new Map<string, number>();
  return {
    db,
    kind: 'pglite',
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
    close: () => db.destroy(),
  };
}

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
    ...(schema ? { options: `-c search_path="${schema}"` } : {}),
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', (error) => log.error({ err: error }, 'PostgreSQL pool error'));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparedStatements ? preparingPool(pool) : pool }) });
  await sql`select 1`.execute(db);
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    kind: 'postgres',
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
      await Promise.all([...listeners].map((stop) => stop()));
      await db.destroy();
    },
  };
}

/** The pool, with each client sending marked statements as named ones (db/prepared.ts). */
function preparingPool(pool: pg.Pool): PostgresPool {
  const patched = new WeakSet<pg.PoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      if (patched.has(client)) return client;
      patched.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((text: unknown, values?: unknown) => {
        const name = typeof text === 'string' ? preparedNameOf(text) : undefined;
        return name ? query({ name, text, values }) : query(text, values);
      }) as typeof client.query;
      return client;
    },
    end: () => pool.end(),
  };
}

/** Delay before reconnecting a broken LISTEN connection. */
const RELISTEN_MS = 1_000;

/** A dedicated connection that LISTENs (a pooled one would lose it), reconnecting when it breaks. */
async function listenPostgres(url: string, channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.notify(message.payload ?? '');
    });
    next.on('error', () => broken(next));
    next.on('end', () => broken(next));
    await next.connect();
    await next.query(`LISTEN "${channel}"`);
    client = next;
  };
  const broken = (which: pg.Client) => {
    if (stopped || client !== which) return;
    client = undefined;
    handlers.lost?.();
    which.end().catch(() => {});
    const again = () => {
      retry = setTimeout(() => {
        if (stopped) return;
        connect().then(
          () => handlers.restored?.(),
          () => again(),
        );
      }, RELISTEN_MS);
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
