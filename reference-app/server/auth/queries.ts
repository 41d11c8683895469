import { sql, type Insertable, type Updateable } from 'kysely';
import type {
  AuthKeysTable,
  Db,
  FlowStatesTable,
  IdentitiesTable,
  MfaFactorsTable,
  OneTimeTokensTable,
  RefreshTokensTable,
  SessionsTable,
  UsersTable,
} from '../db/types';

// The auth feature's SQL, and nothing else: every other auth module calls these. Sections, in
// order: users and identities, sessions and refresh tokens, one-time email tokens, PKCE flow
// states and OAuth states, MFA factors and challenges, signing keys.

// ── Users and identities ──────────────────────────────────────────────────────────────

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

/** A page of users, newest first (the admin API's list); `filter` matches part of the address. */
export function selectUsersPage(db: Db, page: { offset: number; limit: number; filter?: string }) {
  let query = db.selectFrom('users').selectAll();
  if (page.filter) query = query.where('email', 'ilike', `%${escapeLike(page.filter)}%`);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute();
}

export async function countUsers(db: Db, filter?: string): Promise<number> {
  let query = db.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('n'));
  if (filter) query = query.where('email', 'ilike', `%${escapeLike(filter)}%`);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** Deletes the user; identities, sessions, factors and the platform's rows go with it (ON DELETE CASCADE). */
export async function deleteUserRow(db: Db, id: string) {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/** The user with a pending change to `email` (an email change is confirmed at the new address). */
export function selectUserByPendingEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email_change', '=', email).executeTakeFirst();
}

export function selectIdentityByProvider(db: Db, provider: string, providerId: string) {
  return db.selectFrom('identities').selectAll().where('provider', '=', provider).where('provider_id', '=', providerId).executeTakeFirst();
}

// ── Sessions and refresh tokens ───────────────────────────────────────────────────────

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

export function selectSession(db: Db, id: string) {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The session, locked: concurrent refreshes of one session take turns. */
export function selectSessionForUpdate(db: Db, id: string) {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function deleteSession(db: Db, id: string) {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export function updateSession(db: Db, id: string, values: Updateable<SessionsTable>) {
  return db.updateTable('sessions').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export function selectRefreshTokenByHash(db: Db, tokenHash: string) {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** The session's newest unrevoked refresh token (the one a client should be holding). */
export function selectActiveRefreshToken(db: Db, sessionId: string) {
  return db
    .selectFrom('refresh_tokens')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('revoked', '=', false)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function revokeRefreshToken(db: Db, id: number) {
  await db.updateTable('refresh_tokens').set({ revoked: true, updated_at: new Date() }).where('id', '=', id).execute();
}

export async function revokeRefreshTokensOfSession(db: Db, sessionId: string) {
  await db.updateTable('refresh_tokens').set({ revoked: true, updated_at: new Date() }).where('session_id', '=', sessionId).execute();
}

// ── One-time email tokens ─────────────────────────────────────────────────────────────

/** Replaces the user's token of that kind: the previous one stops working. */
export async function replaceOneTimeToken(db: Db, values: Insertable<OneTimeTokensTable> & { user_id: string; token_type: string }) {
  await db.deleteFrom('one_time_tokens').where('user_id', '=', values.user_id).where('token_type', '=', values.token_type).execute();
  await db.insertInto('one_time_tokens').values(values).execute();
}

/** Live (unused, unexpired, not voided after `maxAttempts` wrong codes) tokens of those kinds, locked. */
function liveOneTimeTokens(db: Db, kinds: string[], maxAttempts: number) {
  return db
    .selectFrom('one_time_tokens')
    .selectAll()
    .where('token_type', 'in', kinds)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .where('failed_attempts', '<', maxAttempts);
}

export function selectLiveOneTimeTokenByHash(db: Db, kinds: string[], maxAttempts: number, tokenHash: string) {
  return liveOneTimeTokens(db, kinds, maxAttempts).where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst();
}

export function selectLiveOneTimeTokensOfUser(db: Db, kinds: string[], maxAttempts: number, userId: string) {
  return liveOneTimeTokens(db, kinds, maxAttempts).where('user_id', '=', userId).orderBy('id').forUpdate().execute();
}

/** Counts a wrong code against each of those tokens. */
export async function countFailedCode(db: Db, ids: string[]) {
  await db
    .updateTable('one_time_tokens')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', 'in', ids)
    .execute();
}

export async function markOneTimeTokenUsed(db: Db, id: string) {
  await db.updateTable('one_time_tokens').set({ used_at: new Date() }).where('id', '=', id).execute();
}

// ── PKCE flow states and OAuth states ─────────────────────────────────────────────────

export async function insertFlowState(db: Db, values: Insertable<FlowStatesTable>) {
  const row = await db.insertInto('flow_states').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateFlowState(db: Db, id: string, values: Updateable<FlowStatesTable>) {
  await db.updateTable('flow_states').set(values).where('id', '=', id).execute();
}

/** The flow state holding that auth code, locked until the code is used up. */
export function selectFlowStateByCodeForUpdate(db: Db, authCodeHash: string) {
  return db.selectFrom('flow_states').selectAll().where('auth_code_hash', '=', authCodeHash).forUpdate().executeTakeFirst();
}

export async function insertOAuthState(
  db: Db,
  values: { id: string; provider: string; redirect_to: string; flow_state_id: string | null },
) {
  await db.insertInto('oauth_states').values(values).execute();
}

/** Takes the OAuth state out (each state is good for one callback). */
export function takeOAuthState(db: Db, id: string) {
  return db.deleteFrom('oauth_states').where('id', '=', id).returningAll().executeTakeFirst();
}

// ── MFA factors and challenges ────────────────────────────────────────────────────────

export function selectFactorOfUser(db: Db, id: string, userId: string) {
  return db.selectFrom('mfa_factors').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export function insertFactor(db: Db, values: Insertable<MfaFactorsTable>) {
  return db.insertInto('mfa_factors').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateFactor(db: Db, id: string, values: Updateable<MfaFactorsTable>) {
  await db.updateTable('mfa_factors').set(values).where('id', '=', id).execute();
}

export async function deleteFactor(db: Db, id: string) {
  await db.deleteFrom('mfa_factors').where('id', '=', id).execute();
}

/** Removes the user's unverified factors: of one type, or only those created before `before`. */
export async function deleteUnverifiedFactors(db: Db, userId: string, only: { type: string } | { before: Date }) {
  let query = db.deleteFrom('mfa_factors').where('user_id', '=', userId).where('status', '=', 'unverified');
  query = 'type' in only ? query.where('factor_type', '=', only.type) : query.where('created_at', '<', only.before);
  await query.execute();
}

/** Records the TOTP step used; false when that step (or a later one) was used already. */
export async function claimTotpStep(db: Db, factorId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('mfa_factors')
    .set({ last_totp_step: step })
    .where('id', '=', factorId)
    .where((eb) => eb.or([eb('last_totp_step', 'is', null), eb('last_totp_step', '<', step)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Sessions that were raised with the factor fall back to aal1 (the factor is gone). */
export async function lowerSessionsOfFactor(db: Db, factorId: string) {
  await db
    .updateTable('sessions')
    .set({ aal: 'aal1', factor_id: null, updated_at: new Date() })
    .where('factor_id', '=', factorId)
    .execute();
}

/** Ends the user's sessions below aal2. */
export async function deleteSessionsBelowAal2(db: Db, userId: string) {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('aal', '!=', 'aal2').execute();
}

export function insertChallenge(db: Db, factorId: string, ip: string) {
  return db.insertInto('mfa_challenges').values({ factor_id: factorId, ip }).returningAll().executeTakeFirstOrThrow();
}

export function selectChallengeOfFactor(db: Db, id: string, factorId: string) {
  return db.selectFrom('mfa_challenges').selectAll().where('id', '=', id).where('factor_id', '=', factorId).executeTakeFirst();
}

export async function deleteChallenge(db: Db, id: string) {
  await db.deleteFrom('mfa_challenges').where('id', '=', id).execute();
}

/** Counts one try, in one statement so parallel guesses cannot overtake it; false past `max`. */
export async function countChallengeAttempt(db: Db, id: string, max: number): Promise<boolean> {
  const result = await db
    .updateTable('mfa_challenges')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', id)
    .where('failed_attempts', '<', max)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Marks the challenge verified; false when it already was. */
export async function claimChallenge(db: Db, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('mfa_challenges')
    .set({ verified_at: at })
    .where('id', '=', id)
    .where('verified_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// ── Signing keys ──────────────────────────────────────────────────────────────────────

/** Serialises key creation across server processes, for the rest of the transaction. */
export async function lockSigningKeys(db: Db) {
  await sql`select pg_advisory_xact_lock(727001)`.execute(db);
}

export async function hasUnretiredSigningKey(db: Db): Promise<boolean> {
  return !!(await db.selectFrom('auth_keys').select('kid').where('retired_at', 'is', null).executeTakeFirst());
}

export async function insertSigningKey(db: Db, values: Insertable<AuthKeysTable>) {
  await db.insertInto('auth_keys').values(values).execute();
}

/** The unretired keys, newest first (the first one signs). */
export function selectUnretiredSigningKeys(db: Db) {
  return db
    .selectFrom('auth_keys')
    .selectAll()
    .where('retired_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('kid', 'desc')
    .execute();
}
