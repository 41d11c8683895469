// What the editor and /account/hosting say about a container deployment
// (reference-app/src/pages/publish/deploymentModel.ts; docs/publishing.md, "Lifecycle"): the
// status in words, the timings, a failure split into its reason and last log lines, and the
// GPU offers one line each without duplicates.
import { describe, expect, it } from 'vitest';
import type { PricingServer } from '../../../src/api';
import {
  deploymentTimings,
  describeDeployment,
  distinctGpuOffers,
  failureOf,
  formatDuration,
  gpuOfferLabel,
  logLinesOf,
  type DeploymentReport,
} from '../../../reference-app/src/pages/publish/deploymentModel';

const base: DeploymentReport = {
  hosted_model_id: 'h',
  model_id: 'm',
  gpu: 'g',
  min_instances: 0,
  max_instances: 2,
  endpoint_url: '',
  updated_at: '2026-11-24T09:00:00.000Z',
  message: null,
  status: 'running',
  instances: 1,
  last_cold_start_ms: 20,
};

describe('the deployment in words', () => {
  it('says the status and the instances', () => {
    expect(describeDeployment(base)).toBe('Running · 1 of up to 2 instances');
    expect(describeDeployment({ ...base, status: 'deploying', instances: 0, max_instances: 1 })).toBe('Deploying · 0 of up to 1 instance');
    expect(describeDeployment({ ...base, status: 'scaled_to_zero', instances: 0 })).toBe(
      'Scaled to zero · no instance running; the next run starts one (a cold start)',
    );
    expect(describeDeployment({ ...base, status: 'stopped', instances: 0 })).toBe('Stopped');
    expect(describeDeployment({ ...base, status: 'waiting_for_runner', instances: 0 })).toBe('Waiting for a runner');
  });

  it('lists the measured timings only, in readable units', () => {
    expect(deploymentTimings({ ...base, last_queue_ms: 3, last_run_ms: 1250 })).toEqual([
      { label: 'Last cold start', value: '20 ms' },
      { label: 'Last queue time', value: '3 ms' },
      { label: 'Last run time', value: '1.3 s' },
    ]);
    expect(deploymentTimings({ ...base, last_cold_start_ms: null })).toEqual([]);
    expect(formatDuration(185_000)).toBe('3 min 5 s');
  });

  it('splits a failure into its reason and the last log lines the runner appended', () => {
    const failed = {
      ...base,
      status: 'failed' as const,
      message: 'The container exited with code 2 before it answered. Last log lines:\nfixture: cannot load the model\n',
    };
    expect(failureOf(failed)).toEqual({
      reason: 'The container exited with code 2 before it answered.',
      lines: ['fixture: cannot load the model'],
    });
    expect(logLinesOf(failed)).toEqual([{ at: base.updated_at, stream: 'runner', instance: '', text: 'fixture: cannot load the model' }]);
    expect(failureOf({ ...failed, message: null })?.reason).toMatch(/gave no reason/);
    expect(failureOf(base)).toBeNull();
  });

  it('prefers the deployment log ring when the server sends it', () => {
    const logs = [{ at: base.updated_at, stream: 'stdout' as const, instance: 'abc', text: 'fixture listening on 8080' }];
    expect(logLinesOf({ ...base, logs })).toBe(logs);
  });
});

describe('the GPU list', () => {
  const offer = (over: Partial<PricingServer>): PricingServer => ({
    id: 'a4000',
    display_name: 'RTX A4000 16 GB',
    provider: 'runpod',
    physical_gpus: 1,
    gpu_vram_gb: 16,
    customer_price_per_s_usd: 0.00016,
    ...over,
  });

  it('shows one line per offer: GPU, VRAM, provider, price per second', () => {
    expect(gpuOfferLabel(offer({}))).toBe('RTX A4000 · 16 GB VRAM · runpod · $0.00016/s');
    expect(gpuOfferLabel(offer({ display_name: 'A100 80 GB', gpu_vram_gb: 80, physical_gpus: 2, customer_price_per_s_usd: 0.0015 }))).toBe(
      '2× A100 · 80 GB VRAM · runpod · $0.00150/s',
    );
  });

  it('keeps the cheapest of offers that differ only by price, in the listed order', () => {
    const list = [
      offer({ id: 'a', display_name: 'A100 80 GB', gpu_vram_gb: 80, customer_price_per_s_usd: 0.0009 }),
      offer({ id: 'b' }),
      offer({ id: 'c', display_name: 'A100 80 GB', gpu_vram_gb: 80, customer_price_per_s_usd: 0.00076 }),
      offer({ id: 'd', display_name: 'A100 80 GB', gpu_vram_gb: 80, provider: 'runpod-secure' }),
    ];
    expect(distinctGpuOffers(list).map((s) => s.id)).toEqual(['b', 'c', 'd']);
  });
});
