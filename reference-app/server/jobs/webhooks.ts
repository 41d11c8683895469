import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { Db } from '../db/types';
import { checkServiceUrl, ownAddressOf, platformRequestHeaders, urlProblem, type UrlPolicy } from '../runtimes/http/urlPolicy';
import { webhookSecretBox, webhookSecretsOf } from './webhookSecrets';
import { envelopeOf, type JobRow } from './envelope';

// Job webhooks (docs/jobs.md: webhooks): when a job ends, its envelope is POSTed to the job's
// `webhook` URL, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)
// with the owner's secret. Deliveries are rows, so they survive restarts; a failed attempt is
// retried with backoff, then given up.

/** Delay before attempt n+1 after n failed attempts, seconds; after the last, the delivery fails. */
export const WEBHOOK_BACKOFF_S = [5, 30, 120, 600, 3600] as const;
const DELIVERY_TIMEOUT_MS = 10_000;

/** The URL policy for webhooks (docs/security.md, "Service URLs"), at creation and at every delivery. */
export function webhookPolicy(allowPrivate: boolean, publicUrl: string): UrlPolicy {
  return { allowPrivateAddresses: allowPrivate, own: ownAddressOf(publicUrl) };
}

/** Why a webhook URL is refused, or undefined when it is acceptable. */
export function webhookUrlProblem(value: string, allowPrivate: boolean, publicUrl: string): Promise<string | undefined> {
  return urlProblem(value, webhookPolicy(allowPrivate, publicUrl), 'webhook');
}

export interface WebhookDeps {
  db: Db;
  linkKey: Buffer;
  publicUrl: string;
  allowPrivate: boolean;
  fetch?: typeof fetch;
}

/** Sends every due delivery once (claimed with SKIP LOCKED); answers how many were attempted. */
export async function deliverDueWebhooks(deps: WebhookDeps, limit = 10): Promise<number> {
  const due = await sql<{ id: string; job_id: string; user_id: string; url: string; attempts: number }>`
    UPDATE webhook_deliveries SET next_attempt_at = clock_timestamp() + interval '60 seconds'
    WHERE id IN (
      SELECT id FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_at <= clock_timestamp()
      ORDER BY next_attempt_at LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, job_id, user_id, url, attempts`.execute(deps.db);
  await Promise.all(due.rows.map((delivery) => deliverOne(deps, delivery)));
  return due.rows.length;
}

async function deliverOne(deps: WebhookDeps, delivery: { id: string; job_id: string; user_id: string; url: string; attempts: number }) {
  const job = (await deps.db.selectFrom('jobs').selectAll().where('id', '=', delivery.job_id).executeTakeFirst()) as JobRow | undefined;
  if (!job) return;
  const payload = JSON.stringify({
    type: `job.${job.status.toLowerCase()}`,
    timestamp: new Date().toISOString(),
    data: envelopeOf(job, deps.publicUrl),
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
    await checkServiceUrl(new URL(delivery.url), webhookPolicy(deps.allowPrivate, deps.publicUrl), 'webhook');
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
  if (!error) {
    await deps.db
      .updateTable('webhook_deliveries')
      .set({ status: 'delivered', attempts, last_error: null })
      .where('id', '=', delivery.id)
      .execute();
    return;
  }
  const backoff = WEBHOOK_BACKOFF_S[attempts - 1];
  await deps.db
    .updateTable('webhook_deliveries')
    .set({
      attempts,
      last_error: error.slice(0, 500),
      status: backoff === undefined ? 'failed' : 'pending',
      next_attempt_at: new Date(Date.now() + (backoff ?? 0) * 1000),
    })
    .where('id', '=', delivery.id)
    .execute();
}
