import type { CoreConfig } from '../config/core';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import type { RateLimiter } from '../http/rateLimit';
import type { Mailer } from '../mail/mailer';
import type { SigningKeys } from './keys';

/** What the auth API needs from the rest of the server. */
export interface AuthDeps {
  db: Db;
  config: CoreConfig;
  keys: SigningKeys;
  box: SecretBox;
  mailer: Mailer;
  limiter: RateLimiter;
  /** Runs in the transaction that creates a user (the platform adds profile and sign-up bonus). */
  onUserCreated(trx: Db, userId: string): Promise<void>;
}

export const issuerOf = (config: CoreConfig) => `${config.publicUrl}/auth/v1`;
