import { z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { claimIdempotencyKey, keepIdempotentAnswer, releaseIdempotencyKey, selectIdempotencyKey } from '../db/idempotencyKeys';
import type { Db } from '../db/types';
import { DomainError } from '../errors';
import type { SignedInEnv } from './authenticate';
import { keyReusedConflict, requestDigest } from './idempotencyDigest';

// Idempotency-Key: one set of rules for every create (docs/jobs.md, "Idempotency-Key"). The key
// is the caller's (scoped per user); the same key with the same request answers the first
// answer again (`Idempotent-Replayed: true`), with a different request 409. Jobs keep the key on
// the job row, written with the hold in one statement (jobs/service.ts); the account creates
// (credits, checkouts, subscriptions, API keys, registry credentials, services) go through
// `idempotentCreate`, which keeps the first success's answer in `idempotency_keys`.

export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;

/** How long an account create's key is remembered; a key used again after this runs afresh. */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** A claim whose request never finished (its process died) is given up after this. */
const ABANDONED_CLAIM_MS = 60_000;

/** A repeat waits this long for the first request with its key to finish before a 409. */
const WAIT_FOR_FIRST_MS = 15_000;
const WAIT_STEP_MS = 25;

/** The header as the OpenAPI contract states it (request.headers of a create). */
export const IdempotencyKeyHeaders = z.object({
  'idempotency-key': z
    .string()
    .max(IDEMPOTENCY_KEY_MAX_LENGTH)
    .optional()
    .openapi({ description: 'Repeating a create with the same key answers the first answer (per user; 409 if the request differs)' }),
});

/** The caller's key, or undefined without one. */
export function idempotencyKeyOf(c: Context): string | undefined {
  return c.req.header('idempotency-key')?.trim() || undefined;
}

/** The request's body as a value (JSON parsed, so spacing does not matter), else its text. */
async function bodyOf(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Middleware for a signed-in create: without an Idempotency-Key the request runs as before;
 * with one, the first request runs and a 2xx answer is kept; a repeat with the same body gets
 * that answer (waiting while the first still runs, so parallel duplicates charge once); a failed
 * first request releases the key, so the retry runs again (as a refused job create does).
 */
export function idempotentCreate(db: Db, lifetimeMs = IDEMPOTENCY_KEY_LIFETIME_MS): MiddlewareHandler<SignedInEnv> {
  return async (c, next) => {
    const key = idempotencyKeyOf(c);
    if (!key || c.req.method !== 'POST') return next();
    if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      throw new DomainError('invalid', `Idempotency-Key: at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
    }
    const userId = c.var.caller.userId;
    const hash = requestDigest([c.req.method, c.req.path, await bodyOf(c)]);
    const claim = () => {
      const now = Date.now();
      return claimIdempotencyKey(db, userId, key, hash, new Date(now), new Date(now - lifetimeMs), new Date(now - ABANDONED_CLAIM_MS));
    };
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    while (!(await claim())) {
      const first = await selectIdempotencyKey(db, userId, key);
      if (!first) continue; // released by a failed first request: claim it now
      if (first.request_hash !== hash) throw keyReusedConflict(key, 'an earlier create of this account');
      if (first.response_status !== null) {
        return c.body(first.response_body ?? '', first.response_status as 200, {
          'Content-Type': 'application/json',
          'Idempotent-Replayed': 'true',
        });
      }
      if (Date.now() > deadline) throw new DomainError('conflict', `A request with Idempotency-Key ${key} is still running; try again`);
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }

    let kept = false;
    try {
      await next();
      if (!c.error && c.res.status >= 200 && c.res.status < 300) {
        await keepIdempotentAnswer(db, userId, key, hash, c.res.status, await c.res.clone().text());
        kept = true;
      }
    } finally {
      if (!kept) await releaseIdempotencyKey(db, userId, key, hash);
    }
  };
}
