import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CPU_PRICE, creditsForRun } from '@limelight/rules';
import type { ModelDescriptor } from '../../../src/api';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { DEMO_REASON } from '../../../reference-app/server/hosting';
import { OCR_EXAMPLE } from '../../../reference-app/server/seed';
import { rawApi } from '../helpers';
import { runService } from '../models/fixtures';
import { addEntry } from '../../../reference-app/server/payments';
import { runner, TEXT2IMG } from './fixtures';

// Prices by the hardware that runs a service (docs/jobs.md: metering), against a real platform
// server with its built-in runtimes: a seeded service on the local demo runtime is marked a demo
// in the catalogue and its runs are free (no ledger row); lime-ocr runs Tesseract on the CPU and
// is billed per CPU-second at the CPU tier, its transaction saying "CPU seconds".

let server: PlatformTestServer;
beforeAll(async () => {
  server = await startPlatformServer({ env: { LOCAL_DEMO_STEP_MS: '0' } });
}, 60_000);
afterAll(() => server?.close());

const ledgerOf = (jobId: string) =>
  server.platform.database.db
    .selectFrom('credit_ledger')
    .select(['amount', 'kind', 'description'])
    .where('reference', 'like', `job:${jobId}%`)
    .execute();

describe('what runs a service, in the catalogue', () => {
  it('marks the demo services with their reason and tells the CPU models from them', async () => {
    const { json } = await rawApi(server, 'GET', '/v1/model_management/model_descriptors', {});
    const services = json as unknown as ModelDescriptor[];
    const byId = new Map(services.map((s) => [s.id, s]));
    expect(byId.get(TEXT2IMG)).toMatchObject({ hardware: 'demo', demo: true, demo_reason: DEMO_REASON });
    const ocr = byId.get('lime-ocr')!;
    expect(ocr.hardware).toBe('cpu');
    expect(ocr).not.toHaveProperty('demo');
    expect(ocr).not.toHaveProperty('demo_reason');
  });

  it('prices a demo at 0 and a CPU model at the CPU tier before any run (the public price basis)', async () => {
    const demo = await rawApi(server, 'GET', `/v1/model_management/price_basis?service_id=${TEXT2IMG}&endpoint=/generate`, {});
    expect(demo.json).toMatchObject({ gpu: 'Demo', hardware: 'demo', price_per_s_usd: 0 });
    const cpu = await rawApi(server, 'GET', '/v1/model_management/price_basis?service_id=lime-ocr&endpoint=/read', {});
    expect(cpu.json).toMatchObject({ gpu: 'CPU', hardware: 'cpu', price_per_s_usd: CPU_PRICE.customer_price_per_s_usd });
  });
});

describe('what a run costs', () => {
  it('charges a demo run nothing: cost 0, no hold, no ledger row, the balance untouched', async () => {
    const { token, payment } = await runner(server, 'demo-run');
    const before = await payment.balance();
    const job = await runService(server, token, TEXT2IMG, '/generate', { prompt: 'a lime' });
    expect(job).toMatchObject({ status: 'FINISHED', runtime: 'local-demo', metrics: { cost_credits: 0 } });
    expect(await ledgerOf(job.job_id)).toEqual([]);
    expect(await payment.balance()).toEqual(before);
  }, 30_000);

  it('runs a demo for a user with no credits left, and still refuses them a paid run', async () => {
    const { token, userId, payment } = await runner(server, 'no-credits');
    const before = await payment.balance();
    if (!before.ok) throw new Error(before.error);
    await addEntry(server.platform.database.db, {
      userId,
      amount: -before.data.balance,
      kind: 'adjustment',
      description: 'Spent in a test',
    });
    const job = await runService(server, token, TEXT2IMG, '/generate', { prompt: 'a lime' });
    expect(job).toMatchObject({ status: 'FINISHED', metrics: { cost_credits: 0 } });
    const paid = await rawApi(server, 'POST', '/v1/jobs', {
      token,
      body: { service_id: 'lime-ocr', endpoint: '/read', input: OCR_EXAMPLE.input },
    });
    expect(paid.status).toBe(402);
  }, 30_000);

  it('bills a CPU model per CPU-second at the CPU tier, and the transaction says "CPU seconds"', async () => {
    const { token } = await runner(server, 'cpu-run');
    const job = await runService(server, token, 'lime-ocr', '/read', OCR_EXAMPLE.input!);
    expect(job.status, JSON.stringify(job.error)).toBe('FINISHED');
    expect(job.runtime).toBe('local');
    const row = await server.platform.database.db
      .selectFrom('jobs')
      .select(['price_per_s_usd', 'gpu_seconds'])
      .where('id', '=', job.job_id)
      .executeTakeFirstOrThrow();
    expect(Number(row.price_per_s_usd)).toBe(CPU_PRICE.customer_price_per_s_usd);
    expect(job.metrics.cost_credits).toBe(creditsForRun(Number(row.gpu_seconds), CPU_PRICE.customer_price_per_s_usd));
    expect(job.metrics.cost_credits).toBeGreaterThan(0);
    const ledger = (await ledgerOf(job.job_id)).filter((entry) => entry.kind === 'usage');
    expect(ledger).toEqual([
      {
        amount: -job.metrics.cost_credits!,
        kind: 'usage',
        description: expect.stringMatching(/^Run of lime-ocr \/read: [\d.]+ CPU seconds$/),
      },
    ]);
    // The transactions list shows the ledger's line as it was written.
    const transactions = await rawApi(server, 'GET', '/v1/payment/get_transactions', { token });
    expect(JSON.stringify(transactions.json)).toContain('CPU seconds');
    expect(JSON.stringify(transactions.json)).not.toContain('GPU seconds');
  }, 60_000);
});
