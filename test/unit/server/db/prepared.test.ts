import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { prepared, preparedNameOf } from '../../../../reference-app/server/db/prepared';
import { openDatabase } from '../../../../reference-app/server/db/connect';

// Statements marked with prepared() get a stable name per text; unmarked ones none (db/prepared.ts).

describe('prepared statements', () => {
  it('names a marked statement by its mark and a digest of its text, and leaves others unnamed', async () => {
    const database = await openDatabase({ relaxedDurability: true });
    try {
      const compile = (query: ReturnType<typeof sql>) => query.compile(database.db).sql;
      const claim = compile(sql`${prepared('claim_jobs')} SELECT ${1}::int`);
      const other = compile(sql`${prepared('claim_jobs')} SELECT ${1}::int + 1`);
      expect(preparedNameOf(claim)).toMatch(/^claim_jobs_[0-9a-f]{12}$/);
      expect(preparedNameOf(claim)).toBe(preparedNameOf(claim));
      expect(preparedNameOf(other)).not.toBe(preparedNameOf(claim));
      expect(preparedNameOf(compile(sql`SELECT ${1}::int`))).toBeUndefined();
      // The mark is a comment: the statement runs as written (here on PGlite).
      expect((await sql<{ n: number }>`${prepared('answer')} SELECT ${41}::int + 1 AS n`.execute(database.db)).rows).toEqual([{ n: 42 }]);
    } finally {
      await database.close();
    }
  });

  it('refuses a name that could break out of the comment', () => {
    expect(() => prepared('x */ DROP TABLE jobs; /*')).toThrow(/Invalid prepared statement name/);
  });
});
