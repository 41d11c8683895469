import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Job } from '../../../src/api';
import type { PlatformTestServer } from '../../../reference-app/server/testing';
import { RuntimeError, type Runtime } from '../../../reference-app/server/runtimes';
import type { RuntimeChooser } from '../../../reference-app/server/hosting';
import type { Db } from '../../../reference-app/server/db';
import { apiClients, confirmedUser, rawApi, signedIn, type Target } from '../helpers';

// A tiny runtime injected through the platform's runtime seam (not a fake of a third party):
// its behaviour follows the prompt, so each test says what the run does.
//   "sleep:<ms>"  waits (honouring cancel) then answers; "hang" ignores its signal forever;
//   "fail" throws a RuntimeError; "stream:<words>" streams the words; "image" stores a PNG.

export const TEXT2IMG = 'lime-diffusion-xl';
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export const runCounts = new Map<string, number>();

export const testRuntime: Runtime = {
  name: 'test',
  async run(input, ctx) {
    runCounts.set(ctx.jobId, (runCounts.get(ctx.jobId) ?? 0) + 1);
    const prompt = String(input.prompt ?? '');
    if (prompt.startsWith('sleep:')) {
      const ms = Number(prompt.slice(6));
      ctx.progress(0.5, 'halfway');
      await wait(ms, ctx.signal);
      return { echo: prompt };
    }
    if (prompt === 'hang') return new Promise(() => {});
    if (prompt === 'fail') throw new RuntimeError('bad_prompt', 'The test runtime refuses "fail"');
    if (prompt.startsWith('stream:')) {
      for (const word of prompt.slice(7).split(' ')) {
        ctx.partialText(`${word} `);
        await wait(30, ctx.signal);
      }
      return { text: prompt.slice(7) };
    }
    if (prompt === 'image') return { image: await ctx.storeMedia(new Uint8Array(TINY_PNG), 'image/png') };
    return { echo: prompt };
  },
};

export const testRuntimes: RuntimeChooser = () => testRuntime;

/** A fresh confirmed, signed-in user with the jobs client. */
export async function runner(target: Target, label = 'runner') {
  const credentials = await confirmedUser(target, label);
  const { session, user } = await signedIn(target, credentials);
  const clients = apiClients(target, session.access_token);
  return { token: session.access_token, userId: user.id, jobs: clients.jobs, payment: clients.payment };
}

/**
 * Users whose kept balance (`credit_balances`, migration 013) differs from the sum of their
 * ledger entries: always none. Also answers how many users were compared.
 */
export async function balanceMismatches(db: Db) {
  const { rows } = await sql<{ user_id: string; kept: string | null; summed: string | null }>`
    SELECT coalesce(b.user_id, l.user_id) AS user_id, b.balance AS kept, l.summed
    FROM credit_balances b
    FULL JOIN (SELECT user_id, sum(amount) AS summed FROM credit_ledger GROUP BY user_id) l ON l.user_id = b.user_id`.execute(db);
  const wrong = rows.filter((r) => Number(r.kept ?? 0) !== Number(r.summed ?? 0));
  return { compared: rows.length, wrong };
}

const FINAL_STATUSES = ['FINISHED', 'FAILED', 'TIMEOUT', 'CANCELLED'];

/** The job once it is final (polls its envelope). */
export async function untilFinal(target: Target, token: string, id: string, tries = 600): Promise<Job> {
  for (let i = 0; i < tries; i++) {
    const { json } = await rawApi(target, 'GET', `/v1/jobs/${id}`, { token });
    if (FINAL_STATUSES.includes(String(json.status))) return json as unknown as Job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} never ended`);
}

/** Copies TEXT2IMG as a public service of `ownerId` that runs at `baseUrl` (the HTTP runtime). */
export async function httpServiceOf(server: PlatformTestServer, ownerId: string, baseUrl: string): Promise<string> {
  const id = `attack-${randomUUID().slice(0, 8)}`;
  const db = server.platform.database.db;
  await sql`
    INSERT INTO models SELECT (jsonb_populate_record(NULL::models,
      to_jsonb(m) || jsonb_build_object('id', ${id}::text, 'created_by', ${ownerId}::text, 'is_public', true))).*
    FROM models m WHERE m.id = ${TEXT2IMG}`.execute(db);
  await sql`INSERT INTO service_runtimes (model_id, type, base_url) VALUES (${id}, 'http', ${baseUrl})`.execute(db);
  return id;
}
