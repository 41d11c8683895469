import type { Selectable } from 'kysely';
import { randomToken, sha256 } from '../crypto/tokens';
import type { Amr, Db, SessionsTable } from '../db/types';
import { issuerOf, type AuthDeps } from './deps';
import { appMetadata, loadUserBundle, userResponse, type UserRow } from './userRecords';

// Sessions, their rotating refresh tokens and the access tokens (JWT) issued for them.

export type SessionRow = Selectable<SessionsTable>;

export interface SessionResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: ReturnType<typeof userResponse>;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

export const amrEntry = (method: string): Amr[number] => ({ method, timestamp: Math.floor(Date.now() / 1000) });

export async function createSession(trx: Db, user: UserRow, method: string, client: ClientInfo): Promise<SessionRow> {
  const now = new Date();
  await trx.updateTable('users').set({ last_sign_in_at: now, updated_at: now }).where('id', '=', user.id).execute();
  user.last_sign_in_at = now;
  return trx
    .insertInto('sessions')
    .values({
      user_id: user.id,
      aal: 'aal1',
      amr: JSON.stringify([amrEntry(method)]),
      ip: client.ip,
      user_agent: client.userAgent?.slice(0, 512) ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A new refresh token for the session, child of `parentId` when rotating. */
export async function issueRefreshToken(
  trx: Db,
  deps: Pick<AuthDeps, 'box'>,
  session: SessionRow,
  parentId: number | null,
): Promise<string> {
  const token = randomToken(24);
  await trx
    .insertInto('refresh_tokens')
    .values({
      token_hash: sha256(token),
      token_enc: deps.box.seal(token),
      session_id: session.id,
      user_id: session.user_id,
      parent_id: parentId,
    })
    .execute();
  return token;
}

/** The access token of a session, with the claims Supabase issues (GoTrue's HTTP contract). */
export async function signAccessToken(
  deps: Pick<AuthDeps, 'keys' | 'config'>,
  user: UserRow,
  session: SessionRow,
): Promise<{ token: string; expiresAt: number; expiresIn: number }> {
  const issuedAt = Math.floor(Date.now() / 1000);
  const expiresIn = deps.config.jwtExpirySeconds;
  const expiresAt = issuedAt + expiresIn;
  const token = await deps.keys.sign(
    {
      iss: issuerOf(deps.config),
      sub: user.id,
      aud: 'authenticated',
      email: user.email,
      phone: '',
      app_metadata: appMetadata(user),
      user_metadata: user.raw_user_meta_data,
      role: 'authenticated',
      aal: session.aal,
      amr: session.amr,
      session_id: session.id,
      is_anonymous: false,
    },
    expiresAt,
    issuedAt,
  );
  return { token, expiresAt, expiresIn };
}

export async function sessionResponse(
  q: Db,
  deps: Pick<AuthDeps, 'keys' | 'config'>,
  user: UserRow,
  session: SessionRow,
  refreshToken: string,
): Promise<SessionResponse> {
  const access = await signAccessToken(deps, user, session);
  return {
    access_token: access.token,
    token_type: 'bearer',
    expires_in: access.expiresIn,
    expires_at: access.expiresAt,
    refresh_token: refreshToken,
    user: userResponse(await loadUserBundle(q, user)),
  };
}

/** Signs the user in: a new aal1 session, its first refresh token and the session response. */
export async function signIn(trx: Db, deps: AuthDeps, user: UserRow, method: string, client: ClientInfo): Promise<SessionResponse> {
  const session = await createSession(trx, user, method, client);
  const refreshToken = await issueRefreshToken(trx, deps, session, null);
  return sessionResponse(trx, deps, user, session, refreshToken);
}

export async function deleteSessions(
  q: Db,
  userId: string,
  scope: 'global' | 'local' | 'others',
  sessionId: string | undefined,
): Promise<void> {
  let query = q.deleteFrom('sessions').where('user_id', '=', userId);
  if (scope === 'local') {
    if (!sessionId) return;
    query = query.where('id', '=', sessionId);
  } else if (scope === 'others' && sessionId) {
    query = query.where('id', '!=', sessionId);
  }
  await query.execute();
}
