import { selectSessionState } from '../auth/queries';
import type { Db } from '../db/types';
import { SESSION_STATE_CACHE_MS } from '../limits';

// Whether an access token's session still exists and whether its user has a verified MFA
// factor. Access tokens are verified without the database, so without this check a token would
// outlive a sign-out or a password change by up to its lifetime (an hour). A short cache keeps
// the check to one query per session every few seconds; a revocation takes effect within
// SESSION_STATE_CACHE_MS on every server process.

export { SESSION_STATE_CACHE_MS };
/** Beyond this many cached sessions the cache starts over (bounded memory under load). */
const MAX_CACHED = 50_000;

export interface SessionState {
  live: boolean;
  hasVerifiedFactor: boolean;
}

export type SessionStateLookup = (sessionId: string, userId: string) => Promise<SessionState>;

export function sessionStateLookup(db: Db, cacheMs = SESSION_STATE_CACHE_MS, now = () => Date.now()): SessionStateLookup {
  const cache = new Map<string, { at: number; state: SessionState }>();
  return async (sessionId, userId) => {
    const key = `${sessionId}:${userId}`;
    const hit = cache.get(key);
    if (hit && now() - hit.at < cacheMs) return hit.state;
    const state = await selectSessionState(db, sessionId, userId);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, { at: now(), state });
    return state;
  };
}
