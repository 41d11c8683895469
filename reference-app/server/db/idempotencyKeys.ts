import type { Db } from './types';

// The queries of the account creates' Idempotency-Key (api/idempotency.ts, migration 015).

/**
 * Takes the key for a request: a new key, an expired one (created before `expiredBefore`) or a
 * claim left unanswered since before `abandonedBefore` (its process died). False: it is held.
 */
export async function claimIdempotencyKey(
  db: Db,
  userId: string,
  key: string,
  hash: string,
  now: Date,
  expiredBefore: Date,
  abandonedBefore: Date,
): Promise<boolean> {
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({ user_id: userId, key, request_hash: hash, created_at: now })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'key'])
        .doUpdateSet({ request_hash: hash, response_status: null, response_body: null, created_at: now })
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.created_at', '<', expiredBefore),
            eb.and([eb('idempotency_keys.response_status', 'is', null), eb('idempotency_keys.created_at', '<', abandonedBefore)]),
          ]),
        ),
    )
    .returning('key')
    .executeTakeFirst();
  return claimed !== undefined;
}

export function selectIdempotencyKey(db: Db, userId: string, key: string) {
  return db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
}

/** Keeps the first request's answer for its repeats. */
export async function keepIdempotentAnswer(db: Db, userId: string, key: string, hash: string, status: number, body: string) {
  await db
    .updateTable('idempotency_keys')
    .set({ response_status: status, response_body: body })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .where('request_hash', '=', hash)
    .execute();
}

/** Frees the key of a request that failed, so a retry runs again. */
export async function releaseIdempotencyKey(db: Db, userId: string, key: string, hash: string) {
  await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).where('request_hash', '=', hash).execute();
}
