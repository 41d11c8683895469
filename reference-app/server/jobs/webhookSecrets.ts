import { hkdfSync, randomBytes } from 'node:crypto';
import { createSecretBox, type SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { rotateWebhookSecretRow, selectOrInsertWebhookSecrets } from './queries';

// Each user's webhook signing secret (docs/jobs.md, webhooks): random, stored sealed (its owner
// must be able to read it again), rotated by the owner. After a rotation deliveries are signed
// with the new and the old secret for WEBHOOK_SECRET_OVERLAP_HOURS, so a receiver can switch
// without missing a delivery (Standard Webhooks allows several signatures in one header).

export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;

/** The box that seals webhook secrets: a key of its own, derived from the server's key. */
export function webhookSecretBox(linkKey: Buffer): SecretBox {
  return createSecretBox(Buffer.from(hkdfSync('sha256', linkKey, Buffer.alloc(0), 'limelight webhook secrets', 32)));
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export interface WebhookSecrets {
  current: string;
  /** The secret before the last rotation, while its overlap lasts. */
  previous?: { secret: string; validUntil: Date };
}

/** The user's secrets, creating the first one on first use. */
export async function webhookSecretsOf(db: Db, box: SecretBox, userId: string): Promise<WebhookSecrets> {
  const row = await selectOrInsertWebhookSecrets(db, userId, box.seal(newSecret()));
  const until = row.previous_valid_until ? new Date(row.previous_valid_until) : undefined;
  return {
    current: box.open(row.secret_sealed),
    ...(row.previous_sealed && until && until.getTime() > Date.now()
      ? { previous: { secret: box.open(row.previous_sealed), validUntil: until } }
      : {}),
  };
}

/** A new secret; the current one stays valid for the overlap. */
export async function rotateWebhookSecret(db: Db, box: SecretBox, userId: string): Promise<WebhookSecrets> {
  await webhookSecretsOf(db, box, userId);
  await rotateWebhookSecretRow(db, userId, box.seal(newSecret()), WEBHOOK_SECRET_OVERLAP_HOURS);
  return webhookSecretsOf(db, box, userId);
}
