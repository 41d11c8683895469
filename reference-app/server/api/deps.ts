import type { SigningKeys } from '../auth/keys';
import type { ServerConfig } from '../config';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import type { RateLimiter } from '../http/rateLimit';
import type { Mailer } from '../mail/mailer';
import type { PaymentService } from '../payments/service';
import type { ServiceRoutesOptions } from '../services/routes';

/** What the platform API needs from the rest of the server. */
export interface ApiDeps {
  db: Db;
  config: ServerConfig;
  keys: SigningKeys;
  box: SecretBox;
  mailer: Mailer;
  limiter: RateLimiter;
  payments: PaymentService;
  /** HMAC key for links that prove an address (newsletter unsubscribe). */
  linkKey: Buffer;
  /** Publishing: the URL policy for publishers' services and where card images are stored. */
  services: ServiceRoutesOptions;
}
