// Hosting cold starts (docs/publishing.md, "Cold starts"), on the real engine (Podman here):
//   npm run bench hosting
// Every figure is "no running instance" → "the container answered a job" (POST /greet), over
// BENCH_COLD (default 15) cold starts per technique, for the fixture image:
// - baseline: create + start + first answer (nothing prepared);
// - created: a container created ahead of time, started on demand;
// - paused: a started, healthy container paused ahead of time, unpaused on demand (the runner's
//   default, the cold_start figures of the JSON line);
// - warm: a job on a running instance.
// Every container it creates is removed at the end. It measures and never fails on timings.
import { cpus, loadavg } from 'node:os';
import { InstanceFactory, type WarmStrategy } from '../../reference-app/server/runtimes/container/instances';
import { limitsForGpu } from '../../reference-app/server/runtimes/container/limits';
import { engineSkipReason, FIXTURE_IMAGE, startTestEngine } from '../setup/containerEngine';

const COLD = Number(process.env.BENCH_COLD ?? 15);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
};

async function greet(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/greet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"bench"}',
  });
  const body = (await res.json()) as { text?: string };
  if (!body.text) throw new Error(`unexpected answer ${JSON.stringify(body)}`);
}

const skip = engineSkipReason();
if (skip) {
  console.log(`hosting bench skipped: ${skip}`);
  process.exit(0);
}

const testEngine = await startTestEngine();
const rows: { technique: string; p50: number; p99: number; stages: string }[] = [];
const results: Record<string, number[]> = {};
try {
  const deploymentId = testEngine.deploymentId('bench');
  const factory = new InstanceFactory(
    testEngine.engine,
    { deploymentId, image: FIXTURE_IMAGE, port: 8080, limits: limitsForGpu(16, 512), gpu: 'none' },
    { healthPath: '/openapi.json', readyTimeoutMs: 20_000 },
  );
  for (const technique of ['none', 'created', 'paused'] as WarmStrategy[]) {
    const times: number[] = [];
    const stageTotals: Record<string, number[]> = {};
    for (let i = 0; i < COLD; i += 1) {
      await factory.replenish(technique, 1);
      // Let the engine settle after preparing, as a real pool is prepared long before a job.
      await new Promise((r) => setTimeout(r, 100));
      const t = performance.now();
      const { instance, stages } = await factory.acquire();
      await greet(instance.baseUrl);
      times.push(performance.now() - t);
      for (const [stage, ms] of Object.entries(stages)) (stageTotals[stage] ??= []).push(ms);
      await factory.discard(instance.id);
    }
    results[technique] = times;
    rows.push({
      technique:
        technique === 'none'
          ? 'baseline: create + start + answer'
          : technique === 'created'
            ? 'created ahead, start + answer'
            : 'paused pool, unpause + answer',
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      stages: Object.entries(stageTotals)
        .map(([s, v]) => `${s} ${Math.round(percentile(v, 0.5))}`)
        .join(', '),
    });
  }
  // Warm: one running instance, jobs one after another.
  const { instance } = await factory.acquire();
  const warm: number[] = [];
  for (let i = 0; i < COLD * 2; i += 1) {
    const t = performance.now();
    await greet(instance.baseUrl);
    warm.push(performance.now() - t);
  }
  rows.push({ technique: 'warm: running instance, answer', p50: percentile(warm, 0.5), p99: percentile(warm, 0.99), stages: '' });
  await factory.discard(instance.id);
  await factory.discardSpares();

  console.log(
    `\n${COLD} cold starts per technique, fixture image, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('| technique | p50 ms | p99 ms | stage p50s (ms) |\n|---|---:|---:|---|');
  for (const r of rows) console.log(`| ${r.technique} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.stages} |`);
  console.log(
    JSON.stringify({
      bench: 'hosting',
      baseline_ms: Math.round(percentile(results.none!, 0.5)),
      cold_start_p50_ms: Math.round(percentile(results.paused!, 0.5)),
      cold_start_p99_ms: Math.round(percentile(results.paused!, 0.99)),
      warm_p50_ms: Math.round(percentile(warm, 0.5) * 10) / 10,
    }),
  );
} finally {
  await testEngine.stop();
}
