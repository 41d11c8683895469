import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { pgliteDialect } from './pgliteDialect';
import type { Database, Db } from './types';

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Calls `onNotify` for each pg_notify on `channel` (a lower-case identifier). Delivery is best
   * effort (a dropped PostgreSQL connection is re-opened); callers keep a polling fallback.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`Invalid notification channel ${JSON.stringify(channel)}`);
}

export interface OpenDatabaseOptions {
  /** PGlite data directory; omitted means in memory. Ignored when databaseUrl is set. */
  dataDir?: string;
  databaseUrl?: string;
  /** PostgreSQL schema holding every table (created when missing). */
  schema?: string;
  /** PGlite only: skip fsync; for throw-away databases. */
  relaxedDurability?: boolean;
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
  return {
    db,
    kind: 'pglite',
    // LISTEN goes through Kysely so it waits for the connection like any query (PGlite's own
    // listen() would run it inside whichever transaction holds the single connection).
    async listen(channel, onNotify) {
      checkChannel(channel);
      await sql.raw(`LISTEN ${channel}`).execute(db);
      const off = client.onNotification((name, payload) => {
        if (name === channel) onNotify(payload);
      });
      return async () => {
        off();
        if (!client.closed) await sql.raw(`UNLISTEN ${channel}`).execute(db);
      };
    },
    close: () => db.destroy(),
  };
}

async function openPostgres(url: string, schema: string | undefined): Promise<DatabaseHandle> {
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
  pool.on('error', (error) => console.error('PostgreSQL pool error:', error.message));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await sql`select 1`.execute(db);
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    kind: 'postgres',
    async listen(channel, onNotify) {
      checkChannel(channel);
      const stop = await listenPostgres(url, channel, onNotify);
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

/** A dedicated connection for LISTEN (a pooled one would be handed to other queries). */
async function listenPostgres(url: string, channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    next.on('error', () => reconnect());
    next.on('end', () => reconnect());
    await next.connect();
    await next.query(`LISTEN ${channel}`);
    client = next;
  };
  const reconnect = () => {
    if (stopped || retry) return;
    client = undefined;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch(() => reconnect());
    }, 1000);
    retry.unref();
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

export function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.schema) : openPglite(options);
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
