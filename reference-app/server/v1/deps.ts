import type { AuthDeps } from '../auth/deps';
import type { ServerConfig } from '../config';
import type { FileStore } from '../jobs/files';
import type { JobService } from '../jobs/service';
import type { MediaStore } from '../media/store';
import type { PaymentService } from '../payments/service';
import type { MailOutbox } from '../support/mailOutbox';
import type { ServiceRoutesOptions } from '../publishing/deps';
import type { PlatformRegistry } from '../registry/platformRegistry';

// What the /v1 API is built from: everything each feature's routes read, made by platform.ts.
// Each feature's routes take only their part, typed in their own folder (e.g. JobRouteDeps,
// jobs/routes.ts), so no feature imports this file or this folder (docs/architecture.md,
// "Server layers"); mounts.ts passes it whole, and each type reads only its part.

/** What the platform API needs from the rest of the server: the auth's own (it checks the same tokens) and more. */
export interface ApiDeps extends Omit<AuthDeps, 'onUserCreated'> {
  /** All the settings: the job routes read the queue's and the storage quotas too. */
  config: ServerConfig;
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
  /** The platform's own registry, with container hosting on (registry/). */
  registry?: PlatformRegistry;
}
