import { describe, expect, it } from 'vitest';
import { CPU_PRICE, creditsForRun, GPU_PRICES } from '@limelight/rules';
import { createSecretBox } from '../../../../reference-app/server/crypto/secretBox';
import {
  createRuntimeRegistry,
  DEMO_REASON,
  hardwareOf,
  type RunnableService,
} from '../../../../reference-app/server/hosting/runtimeRegistry';
import { finishValues, usageDescription } from '../../../../reference-app/server/jobs/finish';
import type { JobRow } from '../../../../reference-app/server/jobs/envelope';
import { runPriceOf } from '../../../../reference-app/server/jobs/pricing';
import { loadModelsConfig } from '../../../../reference-app/server/runtimes/models/config';
import type { Db } from '../../../../reference-app/server/db/types';

// Prices by the hardware that runs a service (docs/jobs.md: metering): the runtime that serves it
// decides, a demo run is free, a local model's run is priced at the CPU tier, the rest per GPU-second.

const box = createSecretBox(Buffer.alloc(32, 7));
const service = (overrides: Partial<RunnableService> = {}): RunnableService => ({
  id: 'svc-1',
  provider: 'limelight',
  model_category: [],
  endpoints: [],
  is_public: true,
  created_by: null,
  status: 'active',
  runtime_type: null,
  base_url: null,
  headers_sealed: null,
  ...overrides,
});
/** A registry whose OCR model's program is `tesseract` (any file that exists stands for it: nothing runs). */
const registryWith = (tesseract: string) =>
  createRuntimeRegistry({
    box,
    config: { localDemoStepMs: 0, allowPrivateServiceUrls: true, models: { ...loadModelsConfig({}), tesseract } },
  });

/** A database that fails the test if read: the demo and CPU prices are rules, not rows. */
const noDb = new Proxy({}, { get: () => expect.unreachable('the database was read') }) as unknown as Db;

describe('what runs a service', () => {
  it('is the runtime that serves it: a demo with its reason, a CPU model, or a GPU', () => {
    const installed = registryWith('/bin/sh');
    expect(installed.runsOn(service({ id: 'lime-ocr' }))).toEqual({ hardware: 'cpu' });
    expect(installed.runsOn(service({ id: 'lime-sdxl' }))).toEqual({ hardware: 'demo', demoReason: DEMO_REASON });
    expect(installed.runsOn(service({ runtime_type: 'http', base_url: 'http://127.0.0.1:9' }))).toEqual({ hardware: 'gpu' });
    expect(installed.runsOn(service({ runtime_type: 'container' }))).toEqual({ hardware: 'gpu' });
  });

  it('puts a model service whose program is missing on the demo, saying why', () => {
    const missing = registryWith('/nonexistent/tesseract');
    const on = missing.runsOn(service({ id: 'lime-ocr' }));
    expect(on.hardware).toBe('demo');
    expect(on.demoReason).toMatch(/^Runs on the local demo runtime: \/nonexistent\/tesseract is not installed/);
  });

  it('reads the hardware of a job from its recorded runtime', () => {
    expect(hardwareOf('local-demo')).toBe('demo');
    expect(hardwareOf('local')).toBe('cpu');
    expect(hardwareOf('http')).toBe('gpu');
    expect(hardwareOf('container')).toBe('gpu');
  });
});

describe('the price of a run', () => {
  it('is 0 for a demo and the CPU tier for a CPU model, without reading GPU prices', async () => {
    expect(await runPriceOf(noDb, 'lime-sdxl', 'demo')).toEqual({ gpu: 'Demo', pricePerSecondUsd: 0, hardware: 'demo' });
    expect(await runPriceOf(noDb, 'lime-ocr', 'cpu')).toEqual({
      gpu: 'CPU',
      pricePerSecondUsd: CPU_PRICE.customer_price_per_s_usd,
      hardware: 'cpu',
    });
  });

  it('prices the CPU tier in the GPU table’s units, below every GPU', () => {
    const cheapestGpu = Math.min(...GPU_PRICES.map((gpu) => gpu.customer_price_per_s_usd));
    expect(CPU_PRICE.customer_price_per_s_usd).toBeGreaterThan(0);
    expect(CPU_PRICE.customer_price_per_s_usd).toBeLessThan(cheapestGpu);
    // 10 CPU-seconds: 10 × 0.00002 USD × 92 credits per USD.
    expect(creditsForRun(10, CPU_PRICE.customer_price_per_s_usd)).toBe(0.0184);
  });

  const job = (runtime: string, pricePerSecondUsd: number): JobRow =>
    ({
      id: 'job-1',
      service_id: 'lime-ocr',
      endpoint: '/ocr',
      runtime,
      started_at: new Date(Date.now() - 2000),
      price_per_s_usd: pricePerSecondUsd,
      hold_credits: 100,
    }) as unknown as JobRow;

  it('charges a demo run nothing, even when a price was held, and says it was free', () => {
    const done = finishValues(job('local-demo', 0.00076), { status: 'FINISHED', result: { ok: true } }, 24);
    expect(done.costCredits).toBe(0);
    expect(done.usageDescription).toBe('Demo run of lime-ocr /ocr: free');
  });

  it('names CPU seconds for a local model and GPU seconds for the others', () => {
    const cpu = finishValues(job('local', CPU_PRICE.customer_price_per_s_usd), { status: 'FINISHED', result: {} }, 24);
    expect(cpu.costCredits).toBeGreaterThan(0);
    expect(cpu.usageDescription).toMatch(/^Run of lime-ocr \/ocr: 2\.\d\d CPU seconds$/);
    expect(usageDescription({ service_id: 'x', endpoint: '/run', runtime: 'container' }, 1.5)).toBe('Run of x /run: 1.50 GPU seconds');
  });
});
