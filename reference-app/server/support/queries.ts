import { sql } from 'kysely';
import type { Db } from '../db/types';

// The support feature's SQL: newsletter options and subscriptions, tickets and attachments, and
// the mail outbox.

export function selectOptions(db: Db) {
  return db.selectFrom('newsletter_options').selectAll().orderBy('id').execute();
}

export async function optionNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  const rows = ids.length ? await db.selectFrom('newsletter_options').select(['id', 'display_value']).where('id', 'in', ids).execute() : [];
  return new Map(rows.map((r) => [r.id, r.display_value]));
}

export function selectSubscriptionsOf(db: Db, email: string) {
  return db.selectFrom('newsletter_subscriptions').select(['option_id', 'confirmed_at']).where('email', '=', email).execute();
}

/** Pending rows (confirmed_at null); rows that exist keep their state. */
export function insertPendingSubscriptions(db: Db, email: string, optionIds: number[]) {
  return db
    .insertInto('newsletter_subscriptions')
    .values(optionIds.map((option_id) => ({ email, option_id, confirmed_at: null })))
    .onConflict((oc) => oc.columns(['email', 'option_id']).doNothing())
    .execute();
}

/** Marks the options confirmed (creating rows an unsubscribe removed meanwhile); returns those newly confirmed. */
export async function confirmSubscriptions(db: Db, email: string, optionIds: number[]): Promise<number[]> {
  if (!optionIds.length) return [];
  const rows = await db
    .insertInto('newsletter_subscriptions')
    .values(optionIds.map((option_id) => ({ email, option_id, confirmed_at: new Date() })))
    .onConflict((oc) =>
      oc
        .columns(['email', 'option_id'])
        .doUpdateSet({ confirmed_at: new Date() })
        .where('newsletter_subscriptions.confirmed_at', 'is', null),
    )
    .returning('option_id')
    .execute();
  return rows.map((r) => r.option_id).sort((a, b) => a - b);
}

/** Removes the address from the given options, or from all with an empty list. */
export function deleteSubscriptions(db: Db, email: string, optionIds: number[]) {
  let query = db.deleteFrom('newsletter_subscriptions').where('email', '=', email);
  if (optionIds.length) query = query.where('option_id', 'in', optionIds);
  return query.returning('option_id').execute();
}

export function selectUserEmail(db: Db, userId: string) {
  return db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
}

/** A ticket with this request hash from the user since `since`, if any. */
export function selectRecentTicket(db: Db, userId: string, hash: string, since: Date) {
  return db
    .selectFrom('support_tickets')
    .select('id')
    .where('user_id', '=', userId)
    .where('request_hash', '=', hash)
    .where('created_at', '>', since)
    .executeTakeFirst();
}

/** Holds a transaction-scoped lock on the request hash: identical requests wait for each other. */
export async function lockRequestHash(db: Db, hash: string) {
  await sql`select pg_advisory_xact_lock(hashtext(${hash}))`.execute(db);
}

export function insertTicket(db: Db, values: { user_id: string; topic: string; subject: string; message: string; request_hash: string }) {
  return db.insertInto('support_tickets').values(values).returning('id').executeTakeFirstOrThrow();
}

export async function insertAttachments(
  db: Db,
  rows: { ticket_id: string; filename: string; content_type: string; size_bytes: number; media_key: string }[],
) {
  if (rows.length) await db.insertInto('support_attachments').values(rows).execute();
}

// The mail outbox (mailOutbox.ts).

export async function insertOutboxMail(db: Db, values: { to_address: string; subject: string; text_body: string; html_body: string }) {
  await db.insertInto('mail_outbox').values(values).execute();
}

/**
 * Claims up to `batch` due messages for `leaseMs` (counting the attempt); concurrent senders
 * skip each other's claims.
 */
export async function claimDueMail(db: Db, batch: number, leaseMs: number) {
  const claimed = await sql<{ id: string; to_address: string; subject: string; text_body: string; html_body: string; attempts: number }>`
    update mail_outbox set attempts = attempts + 1, next_attempt_at = now() + ${`${leaseMs} milliseconds`}::interval
     where id in (select id from mail_outbox where sent_at is null and next_attempt_at <= now()
                   order by next_attempt_at limit ${batch} for update skip locked)
     returning id, to_address, subject, text_body, html_body, attempts`.execute(db);
  return claimed.rows;
}

export async function markMailSent(db: Db, id: string) {
  await db.updateTable('mail_outbox').set({ sent_at: new Date(), last_error: null }).where('id', '=', id).execute();
}

export async function markMailFailed(db: Db, id: string, lastError: string, nextAttemptAt: Date) {
  await db.updateTable('mail_outbox').set({ last_error: lastError, next_attempt_at: nextAttemptAt }).where('id', '=', id).execute();
}
