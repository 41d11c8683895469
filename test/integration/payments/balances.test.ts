import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import type { Db } from '../../../reference-app/server/db';
import { rawApi } from '../helpers';
import { balanceMismatches, runner } from '../jobs/fixtures';

// Kept balances (migration 013, docs/jobs.md "What makes the path fast"): `credit_balances` is
// the sum of each user's ledger entries after every kind of write to the ledger, so the job
// path reads one row instead of summing a user's whole history.

let server: PlatformTestServer;
let db: Db;
beforeAll(async () => {
  server = await startPlatformServer({ env: { JOB_WORKER_SLOTS: '0' } });
  db = server.platform.database.db;
});
afterAll(() => server?.close());

const keptOf = async (userId: string) =>
  (await db.selectFrom('credit_balances').select('balance').where('user_id', '=', userId).executeTakeFirst())?.balance;
const entry = (user_id: string, amount: number, reference: string) => ({
  user_id,
  amount,
  kind: 'adjustment',
  description: 'test',
  reference,
});

describe('kept balances', () => {
  it('follow inserts of several users in one statement, changes, deletes and a deleted user', async () => {
    const a = await runner(server, 'kept-a');
    const b = await runner(server, 'kept-b');
    const startA = Number((await keptOf(a.userId)) ?? 0);
    const startB = Number((await keptOf(b.userId)) ?? 0);

    // One statement, two users, several entries each.
    await db
      .insertInto('credit_ledger')
      .values([entry(a.userId, 10.5, 'kept-1'), entry(b.userId, 3, 'kept-2'), entry(a.userId, -0.25, 'kept-3')])
      .execute();
    expect(Number(await keptOf(a.userId))).toBeCloseTo(startA + 10.25, 4);
    expect(Number(await keptOf(b.userId))).toBeCloseTo(startB + 3, 4);

    // The balance the API answers is the kept one.
    const answered = (await rawApi(server, 'GET', '/v1/payment/balance', { token: a.token })).json;
    expect(Number(answered.balance)).toBeCloseTo(startA + 10.25, 4);

    // An entry changed in amount and moved to the other user; one deleted.
    await db.updateTable('credit_ledger').set({ amount: 2, user_id: b.userId }).where('reference', '=', 'kept-1').execute();
    await db.deleteFrom('credit_ledger').where('reference', '=', 'kept-3').execute();
    expect(Number(await keptOf(a.userId))).toBeCloseTo(startA, 4);
    expect(Number(await keptOf(b.userId))).toBeCloseTo(startB + 5, 4);
    expect((await balanceMismatches(db)).wrong).toEqual([]);

    // A deleted user takes their entries and their balance with them, without an error.
    await sql`DELETE FROM users WHERE id = ${b.userId}::uuid`.execute(db);
    expect(await keptOf(b.userId)).toBeUndefined();
    const after = await balanceMismatches(db);
    expect(after.compared).toBeGreaterThan(0);
    expect(after.wrong).toEqual([]);
  });

  it('a rolled-back entry leaves the balance as it was', async () => {
    const c = await runner(server, 'kept-c');
    const before = Number((await keptOf(c.userId)) ?? 0);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('credit_ledger')
          .values(entry(c.userId, 99, 'kept-rolled-back'))
          .execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(Number((await keptOf(c.userId)) ?? 0)).toBe(before);
  });
});
