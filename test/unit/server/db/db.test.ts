import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../../reference-app/server/db/connect';
import { migrateToLatest } from '../../../../reference-app/server/db/migrate';
import { isDatabaseUnavailable, isUniqueViolation } from '../../../../reference-app/server/db/errors';

// The PGlite driver: one backend, lent to one holder at a time, so a transaction never sees
// (or shows) another request's statements, and both drivers return the same JS types.

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openDatabase({ relaxedDurability: true });
  // Every migration applies on a fresh database, in order (each feature adds its numbered file).
  expect(await migrateToLatest(database.db)).toEqual([
    '001_auth',
    '002_platform',
    '003_auth_hardening',
    '004_platform_security',
    '005_jobs',
    '006_catalogue_version',
    '007_services',
    '008_job_holds',
    '009_container_hosting',
    '010_webhook_secrets',
    '011_catalogue_deployment_state',
    '012_job_path',
    '013_credit_balances',
    '014_webhook_events',
    '015_idempotency_keys',
    '016_api_key_names',
    '017_invited_at',
    '018_service_resources',
    '019_rollouts',
    '020_service_secrets',
    '021_service_versions',
    '022_cold_start_tier',
    '023_service_snapshot',
  ]);
});
afterAll(() => database?.close());

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PGlite dialect', () => {
  it('migrations run once', async () => {
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it('a query outside a transaction waits for it and never sees its uncommitted rows', async () => {
    const { db } = database;
    const transaction = db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('settings').values({ key: 'uncommitted', value: 'x' }).execute();
        await pause(50);
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);
    await pause(5);
    const seen = await db.selectFrom('settings').select('key').where('key', '=', 'uncommitted').execute();
    expect(seen).toEqual([]);
    expect(await transaction).toBe('roll back');
  });

  it('concurrent read-modify-write transactions do not lose updates', async () => {
    const { db } = database;
    await db.insertInto('settings').values({ key: 'counter', value: '0' }).execute();
    const increment = () =>
      db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('settings').select('value').where('key', '=', 'counter').executeTakeFirstOrThrow();
        await pause(5);
        await trx
          .updateTable('settings')
          .set({ value: String(Number(row.value) + 1) })
          .where('key', '=', 'counter')
          .execute();
      });
    await Promise.all(Array.from({ length: 10 }, increment));
    expect((await db.selectFrom('settings').select('value').where('key', '=', 'counter').executeTakeFirstOrThrow()).value).toBe('10');
  });

  it('reports affected rows and parses int8, numeric and date as both drivers do', async () => {
    const { db } = database;
    const updated = await db.updateTable('settings').set({ value: 'y' }).where('key', 'in', ['counter', 'missing']).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    const row = await sql<{
      big: unknown;
      money: unknown;
      day: unknown;
      at: unknown;
    }>`select 12345678901::int8 as big, 12.5::numeric(18,4) as money, '1906-12-09'::date as day, now() as at`.execute(db);
    expect(row.rows[0]).toEqual({ big: 12345678901, money: 12.5, day: '1906-12-09', at: expect.any(Date) });
  });

  it('listeners sharing a channel: one stopping leaves the other listening', async () => {
    const { db } = database;
    const heard: string[] = [];
    const stopFirst = await database.listen('shared_channel', { notify: (payload) => heard.push(`first ${payload}`) });
    const stopSecond = await database.listen('shared_channel', { notify: (payload) => heard.push(`second ${payload}`) });
    await stopFirst();
    await sql`select pg_notify('shared_channel', 'after')`.execute(db);
    await expect.poll(() => heard).toEqual(['second after']);
    await stopSecond();
    await sql`select pg_notify('shared_channel', 'gone')`.execute(db);
    await pause(50);
    expect(heard).toEqual(['second after']);
  });
});

// PGlite runs in a worker thread of its own (db/pgliteThread.ts): what crosses between the
// threads must reach callers as it did from PGlite in their own thread.
describe('PGlite in its own thread', () => {
  it('PostgreSQL errors reach callers with their code, constraint and detail', async () => {
    const { db } = database;
    await db.insertInto('settings').values({ key: 'unique-once', value: 'x' }).execute();
    const duplicate = await db
      .insertInto('settings')
      .values({ key: 'unique-once', value: 'y' })
      .execute()
      .catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'settings_pkey', detail: expect.stringContaining('unique-once') });
    const syntax = await sql`selec 1`.execute(db).catch((error: unknown) => error);
    expect(syntax).toMatchObject({ code: '42601', message: expect.stringContaining('syntax error') });
    expect(isDatabaseUnavailable(syntax)).toBe(false);
  });

  it('binary parameters and bytea results cross whole (256 kB)', async () => {
    const bytes = Buffer.alloc(256 * 1024, 7);
    bytes[0] = 1;
    bytes[bytes.length - 1] = 255;
    const { rows } = await sql<{ b: Uint8Array }>`select ${bytes}::bytea as b`.execute(database.db);
    expect(rows[0]!.b).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(rows[0]!.b).equals(bytes)).toBe(true);
    // The caller's buffer is copied, never moved away from it.
    expect(bytes.length).toBe(256 * 1024);
  });

  // Last: it ends the file's database.
  it('an in-memory database whose thread dies fails clearly as unavailable, and is not started again empty', async () => {
    await database.pgliteThread!.kill();
    for (const wait of [0, 1_500]) {
      await pause(wait);
      const error = await sql`select 1`.execute(database.db).catch((e: unknown) => e);
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(String(error)).toContain('in-memory database');
    }
    expect(database.pgliteThread!.starts).toBe(1);
  });
});
