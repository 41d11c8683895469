import { randomUUID } from 'node:crypto';
import { safeEqual, sha256, sha256Base64Url } from '../crypto/tokens';
import type { Db } from '../db/types';
import { badRequest, notFound } from './errors';
import { insertFlowState, selectFlowStateByCodeForUpdate, updateFlowState } from './queries';
import type { Body } from './request';

// PKCE flow state (supabase-js with flowType 'pkce'): the code challenge sent with signup,
// recover, otp or authorize is kept; the email link or OAuth callback then hands the browser a
// one-time auth code instead of tokens, exchanged at /token?grant_type=pkce with the verifier.

const FLOW_STATE_TTL_MS = 24 * 3600 * 1000;

export interface PkceParams {
  codeChallenge: string;
  method: 's256' | 'plain';
}

/** Reads code_challenge / code_challenge_method from a body or query; null when absent. */
export function readPkce(source: Body | Record<string, string | undefined>): PkceParams | null {
  const challenge = source.code_challenge;
  const method = source.code_challenge_method;
  if (challenge === undefined || challenge === null || challenge === '') return null;
  if (typeof challenge !== 'string' || challenge.length < 43 || challenge.length > 128) {
    throw badRequest('validation_failed', 'code_challenge must be a string of 43 to 128 characters');
  }
  const normalized = typeof method === 'string' ? method.toLowerCase() : '';
  if (normalized !== 's256' && normalized !== 'plain') {
    throw badRequest('validation_failed', 'code_challenge_method must be s256 or plain');
  }
  return { codeChallenge: challenge, method: normalized };
}

export async function createFlowState(
  trx: Db,
  pkce: PkceParams,
  input: { userId?: string | null; authMethod: string; provider?: string; redirectTo?: string },
): Promise<string> {
  return insertFlowState(trx, {
    user_id: input.userId ?? null,
    code_challenge: pkce.codeChallenge,
    code_challenge_method: pkce.method,
    authentication_method: input.authMethod,
    provider: input.provider ?? null,
    redirect_to: input.redirectTo ?? null,
  });
}

/** Attaches a fresh auth code to the flow state (after the link or callback succeeded). */
export async function issueAuthCode(trx: Db, flowStateId: string, userId: string): Promise<string> {
  const code = randomUUID();
  await updateFlowState(trx, flowStateId, { auth_code_hash: sha256(code), user_id: userId });
  return code;
}

/** Checks the verifier against the stored challenge and uses the code up; returns the user id. */
export async function redeemAuthCode(trx: Db, authCode: string, verifier: string): Promise<{ userId: string; method: string }> {
  const state = await selectFlowStateByCodeForUpdate(trx, sha256(authCode));
  if (!state || state.used_at || !state.user_id) {
    throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
  }
  if (Date.now() - state.created_at.getTime() > FLOW_STATE_TTL_MS) {
    throw badRequest('flow_state_expired', 'invalid flow state, flow state has expired');
  }
  const expected = state.code_challenge_method === 's256' ? sha256Base64Url(verifier) : verifier;
  if (!safeEqual(expected, state.code_challenge)) {
    throw badRequest('bad_code_verifier', 'code challenge does not match previously saved code verifier');
  }
  await updateFlowState(trx, state.id, { used_at: new Date() });
  return { userId: state.user_id, method: state.authentication_method };
}
