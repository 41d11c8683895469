import type { SigningKeys } from '../auth/keys';
import type { ServerConfig } from '../config';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import type { RateLimiter } from '../http/rateLimit';
import type { FileStore } from '../jobs/files';
import type { JobService } from '../jobs/service';
import type { Mailer } from '../mail/mailer';
import type { MediaStore } from '../media/store';
import type { PaymentService } from '../payments/service';
import type { MailOutbox } from '../support/mailOutbox';
import type { ServiceRoutesOptions } from '../publishing/routes';

/** What the platform API needs from the rest of the server. */
export interface ApiDeps {
  db: Db;
  config: ServerConfig;
  keys: SigningKeys;
  box: SecretBox;
  mailer: Mailer;
  limiter: RateLimiter;
  payments: PaymentService;
  /** Uploaded files (support attachments, job media), outside the database. */
  media: MediaStore;
  /** Mail that must survive a failing mail server (sent after the response, retried). */
  outbox: MailOutbox;
  /** HMAC key for links that prove an address (newsletter confirm and unsubscribe). */
  linkKey: Buffer;
  /** The job API's domain (jobs/) and its stored files. */
  jobs: JobService;
  jobFiles: FileStore;
  /** Publishing: the URL policy for publishers' services and where card images are stored. */
  services: ServiceRoutesOptions;
}
