import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';

// Prepared statements for the few statements every job runs (docs/jobs.md, "What makes the
// path fast"). Planning the create, the claim and the finish (CTEs over several tables) cost
// PostgreSQL more CPU than running them: 0.4-0.9 ms per statement, about a third of its CPU per
// job. A statement that begins with `prepared(name)` is sent as a named statement, parsed and
// planned once per connection and then executed with a generic plan. Opt-in, not every query:
// the number of named statements a connection keeps must stay bounded, and Kysely's other
// queries (IN lists of any length, inserts of any width) would each leave one behind.
//
// A pooler in transaction mode that does not track prepared statements (PgBouncer before 1.21)
// breaks named statements: DATABASE_PREPARED_STATEMENTS=false sends them unnamed.

const MARK_START = '/* prepared:';
const MARK = /^\/\* prepared:([a-z_]+) \*\//;

/** Marks the statement it starts as prepared; the name says which statement it is. */
export function prepared(name: string): RawBuilder<unknown> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`Invalid prepared statement name ${JSON.stringify(name)}`);
  return sql.raw(`/* prepared:${name} */`);
}

const names = new Map<string, string | undefined>();

/**
 * The statement's name when it was marked, else undefined. The name carries a digest of the
 * text, so two texts under one mark (a statement changed while a connection stays open) never
 * collide.
 */
export function preparedNameOf(text: string): string | undefined {
  if (!text.startsWith(MARK_START)) return undefined;
  let name = names.get(text);
  if (name !== undefined || names.has(text)) return name;
  const mark = MARK.exec(text);
  name = mark ? `${mark[1]}_${createHash('sha256').update(text).digest('hex').slice(0, 12)}` : undefined;
  if (names.size > 1_000) names.clear();
  names.set(text, name);
  return name;
}
