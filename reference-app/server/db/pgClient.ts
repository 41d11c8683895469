import { CompiledQuery } from 'kysely';
import type { Db } from './types';

// A `pg`-style client (`query({ text, values })` → `{ rows, rowCount }`) answered by Kysely, for
// libraries that bring their own SQL (rate-limiter-flexible's counters: http/rateLimit.ts), so
// that it runs on PGlite as on PostgreSQL.

export function pgStyleClient(db: Db) {
  return {
    async query(q: { text: string; values?: unknown[] }) {
      const result = await db.executeQuery(CompiledQuery.raw(q.text, q.values ?? []));
      return { rows: result.rows, rowCount: result.rows.length || Number(result.numAffectedRows ?? 0) };
    },
  };
}
