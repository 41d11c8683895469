import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db, IdentitiesTable, RefreshTokensTable, SessionsTable, UsersTable } from '../db/types';

// The auth feature's SQL (moving here file by file: userRecords.ts, sessions.ts and the session check so far;
// eslint.config.js lists the auth files that still build queries themselves).

/** Whether a session still exists and whether its user has a verified MFA factor (api/sessionState.ts). */
export async function selectSessionState(db: Db, sessionId: string, userId: string) {
  const row = await sql<{ live: boolean; mfa: boolean }>`
    select exists(select 1 from sessions where id = ${sessionId} and user_id = ${userId}) as live,
           exists(select 1 from mfa_factors where user_id = ${userId} and status = 'verified') as mfa`.execute(db);
  return { live: !!row.rows[0]?.live, hasVerifiedFactor: !!row.rows[0]?.mfa };
}

export function selectUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function selectUserById(db: Db, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function selectIdentitiesOf(db: Db, userId: string) {
  return db.selectFrom('identities').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

export function selectFactorsOf(db: Db, userId: string) {
  return db.selectFrom('mfa_factors').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

export function insertUserRow(db: Db, values: Insertable<UsersTable>) {
  return db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertIdentity(db: Db, values: Insertable<IdentitiesTable>) {
  await db.insertInto('identities').values(values).execute();
}

export function updateUserRow(db: Db, id: string, values: Updateable<UsersTable>) {
  return db.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Ends every session of the user. */
export async function deleteSessionsOf(db: Db, userId: string) {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

export function selectEmailIdentity(db: Db, userId: string) {
  return db.selectFrom('identities').selectAll().where('user_id', '=', userId).where('provider', '=', 'email').executeTakeFirst();
}

export async function updateIdentity(db: Db, id: string, values: Updateable<IdentitiesTable>) {
  await db.updateTable('identities').set(values).where('id', '=', id).execute();
}

export async function setLastSignIn(db: Db, userId: string, at: Date) {
  await db.updateTable('users').set({ last_sign_in_at: at, updated_at: at }).where('id', '=', userId).execute();
}

export function insertSession(db: Db, values: Insertable<SessionsTable>) {
  return db.insertInto('sessions').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertRefreshToken(db: Db, values: Insertable<RefreshTokensTable>) {
  await db.insertInto('refresh_tokens').values(values).execute();
}

/** Deletes the user's sessions: all, only `sessionId`, or all but `sessionId`. */
export async function deleteSessionsWhere(db: Db, userId: string, only?: { id: string; keep: boolean }) {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (only) query = query.where('id', only.keep ? '!=' : '=', only.id);
  await query.execute();
}
