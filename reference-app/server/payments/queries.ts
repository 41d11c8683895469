import type { Db } from '../db/types';

// Plan rows (the subscription and checkout SQL lives with the payment service, service.ts).

export function selectPlans(db: Db) {
  return db.selectFrom('plans').selectAll().orderBy('sort_idx').execute();
}

export function selectPlan(db: Db, key: string) {
  return db.selectFrom('plans').selectAll().where('key', '=', key).executeTakeFirst();
}
