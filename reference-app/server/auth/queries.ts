import { sql } from 'kysely';
import type { Db } from '../db/types';

// The auth feature's SQL that other modules call: whether a session still exists and whether its
// user has a verified MFA factor (api/sessionState.ts).

export async function selectSessionState(db: Db, sessionId: string, userId: string) {
  const row = await sql<{ live: boolean; mfa: boolean }>`
    select exists(select 1 from sessions where id = ${sessionId} and user_id = ${userId}) as live,
           exists(select 1 from mfa_factors where user_id = ${userId} and status = 'verified') as mfa`.execute(db);
  return { live: !!row.rows[0]?.live, hasVerifiedFactor: !!row.rows[0]?.mfa };
}
