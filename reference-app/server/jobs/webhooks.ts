import { Webhook } from 'standardwebhooks';
import type { Db } from '../db/types';
import { log } from '../log';
import {
  checkServiceUrl,
  ownAddressOf,
  platformRequestHeaders,
  urlProblem,
  type OwnAddress,
  type UrlPolicy,
} from '../runtimes/http/urlPolicy';
import { envelopeOf } from './envelope';
import { sleep } from './events';
import { jobLogSource } from '../hosting/jobLogs';
import { claimDueWebhooks, markWebhookDelivered, markWebhookFailed, selectJobById, type DueDelivery } from './queries';
import { webhookSecretBox, webhookSecretsOf } from './webhookSecrets';

// Job webhooks (docs/jobs.md: webhooks): when a job ends, its envelope is POSTed to the job's
// `webhook` URL, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)
// with the owner's secret. Deliveries are rows, so they survive restarts; a failed attempt is
// retried with backoff, then given up. A job's `webhook_events_filter` chooses the events
// (start, output, logs, completed; default completed): the statements that start a job, save
// its streamed output, store its log lines and end it insert the deliveries (queries.ts).

/** Delay before attempt n+1 after n failed attempts, seconds; after the last, the delivery fails. */
export const WEBHOOK_BACKOFF_S = [5, 30, 120, 600, 3600] as const;
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * The URL policy for webhooks (docs/security.md, "Service URLs"), at creation and at every
 * delivery. `own` is where the platform really listens (JobsConfig.webhookOwn: its port, which a
 * public URL behind a proxy does not show, and the engine's TCP API); without it, the public URL.
 */
export function webhookPolicy(allowPrivate: boolean, publicUrl: string, own?: OwnAddress): UrlPolicy {
  return { allowPrivateAddresses: allowPrivate, own: own ?? ownAddressOf(publicUrl) };
}

/**
 * Why a webhook URL is refused, or undefined when it is acceptable. A private address names the
 * setting that allows it, since a developer's first webhook usually points at their own machine.
 */
export async function webhookUrlProblem(
  value: string,
  allowPrivate: boolean,
  publicUrl: string,
  own?: OwnAddress,
): Promise<string | undefined> {
  const problem = await urlProblem(value, webhookPolicy(allowPrivate, publicUrl, own), 'webhook');
  return problem?.includes('resolves to a private address')
    ? `${problem} (in development, JOB_WEBHOOK_ALLOW_PRIVATE=true allows them)`
    : problem;
}

export interface WebhookDeps {
  db: Db;
  linkKey: Buffer;
  publicUrl: string;
  allowPrivate: boolean;
  /** Where the platform really listens (JobsConfig.webhookOwn). */
  own?: OwnAddress;
  fetch?: typeof fetch;
}

/** A due delivery of one user is sent at most this many at a time, so one user cannot fill the sender. */
const PER_USER_IN_FLIGHT = 2;
/** How often the sender looks for due deliveries (retries are due seconds to hours later). */
const WEBHOOK_POLL_MS = 1000;

/**
 * Sends webhooks from its own loop with its own concurrency, apart from the loop that claims
 * jobs: a slow receiver holds one of the sender's slots, never a job slot or a claim
 * (docs/jobs.md: webhooks).
 */
export class WebhookSender {
  readonly #inFlight = new Set<Promise<void>>();
  /** Deliveries in flight per user id, so a user's cap counts them (claimDueWebhooks). */
  readonly #perUser = new Map<string, number>();
  readonly #stop = new AbortController();
  #wake: (() => void) | undefined;
  #loop: Promise<void> | undefined;

  constructor(
    private readonly deps: WebhookDeps,
    private readonly concurrency: number,
  ) {}

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Looks for due deliveries now (a job just ended). */
  poke(): void {
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    this.#wake?.();
    await this.#loop;
    await Promise.allSettled([...this.#inFlight]);
  }

  async #run(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      try {
        const free = this.concurrency - this.#inFlight.size;
        if (free > 0) {
          for (const delivery of await claimDueWebhooks(this.deps.db, free, PER_USER_IN_FLIGHT, this.#perUser)) {
            const user = delivery.user_id;
            this.#perUser.set(user, (this.#perUser.get(user) ?? 0) + 1);
            const sending: Promise<void> = deliverOne(this.deps, delivery)
              .catch((error: unknown) => log.error({ err: error, delivery: delivery.id }, 'job webhooks: delivery failed'))
              .finally(() => {
                this.#inFlight.delete(sending);
                const left = (this.#perUser.get(user) ?? 1) - 1;
                if (left > 0) this.#perUser.set(user, left);
                else this.#perUser.delete(user);
                this.#wake?.();
              });
            this.#inFlight.add(sending);
          }
        }
      } catch (error) {
        if (!this.#stop.signal.aborted) log.error({ err: error }, 'job webhooks: claiming deliveries failed');
      }
      const pause = sleep(WEBHOOK_POLL_MS, this.#stop.signal);
      this.#wake = pause.wake;
      await pause.promise;
    }
  }
}

/**
 * The `type` of a delivery: `job.started`, `job.output`, `job.logs`, or for the end the final
 * status (`job.finished`, `job.failed`, `job.timeout`, `job.cancelled`).
 */
export function webhookType(event: string, status: string): string {
  if (event === 'start') return 'job.started';
  if (event === 'output' || event === 'logs') return `job.${event}`;
  return `job.${status.toLowerCase()}`;
}

const jobLogLines = async (db: Db, jobId: string) => (await jobLogSource(db)(jobId, '0')).lines;

async function deliverOne(deps: WebhookDeps, delivery: DueDelivery) {
  const job = await selectJobById(deps.db, delivery.job_id);
  if (!job) return;
  const payload = JSON.stringify({
    type: webhookType(delivery.event, job.status),
    timestamp: new Date().toISOString(),
    // A logs delivery carries the lines so far (GET /v1/jobs/{id} answers them the same way).
    data:
      delivery.event === 'logs'
        ? { ...envelopeOf(job, deps.publicUrl), logs: await jobLogLines(deps.db, job.id) }
        : envelopeOf(job, deps.publicUrl),
  });
  const timestamp = new Date();
  const secrets = await webhookSecretsOf(deps.db, webhookSecretBox(deps.linkKey), delivery.user_id);
  // During a rotation's overlap both secrets sign: a receiver verifying with either accepts it.
  const signature = [secrets.current, secrets.previous?.secret]
    .filter((secret): secret is string => !!secret)
    .map((secret) => new Webhook(secret).sign(delivery.id, timestamp, payload))
    .join(' ');
  let error: string | undefined;
  try {
    await checkServiceUrl(new URL(delivery.url), webhookPolicy(deps.allowPrivate, deps.publicUrl, deps.own), 'webhook');
    const response = await (deps.fetch ?? fetch)(delivery.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Limelight-Webhooks/1',
        ...platformRequestHeaders,
        'webhook-id': delivery.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: payload,
    });
    if (response.status < 200 || response.status >= 300) error = `HTTP ${response.status}`;
    await response.body?.cancel().catch(() => {});
  } catch (cause) {
    error = (cause as Error).message || String(cause);
  }
  const attempts = delivery.attempts + 1;
  if (!error) return markWebhookDelivered(deps.db, delivery.id, attempts);
  const backoff = WEBHOOK_BACKOFF_S[attempts - 1];
  await markWebhookFailed(deps.db, delivery.id, attempts, error, backoff === undefined ? undefined : new Date(Date.now() + backoff * 1000));
}
