import { createHash } from 'node:crypto';
import { DomainError } from '../errors';

// The rules of Idempotency-Key that the job service shares with the routes' middleware
// (api/idempotency.ts). Apart from it, so the job service imports no HTTP middleware.

/** A stable digest of what was asked, to tell a retried create from a different one. */
export const requestDigest = (parts: readonly unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

/** The refusal of a key used before for another request. */
export const keyReusedConflict = (key: string, earlier: string) =>
  new DomainError('conflict', `Idempotency-Key ${key} was already used for a different request (${earlier})`);
