// Hosting cold starts (docs/publishing.md, "Cold starts"), on the real engine (Podman here):
//   npm run bench hosting
// Every figure is "no running instance" → "the container answered a job" (POST /greet), over
// BENCH_COLD (default 15) cold starts per technique, for the fixture image:
// - baseline: create + start + first answer (nothing prepared);
// - created: a container created ahead of time, started on demand;
// - paused: a started, healthy container paused ahead of time, unpaused on demand (the runner's
//   default, the cold_start figures of the JSON line);
// - warm: a job on a running instance.
// Each technique runs under runc and, where Debian's runsc is installed, under gVisor (the
// CONTAINER_SANDBOX=gvisor tier, docs/security.md, "Sandbox tiers"), one after the other.
// Then the same real limelight.serve app through the gVisor tiers side by side, alternating:
// snapshot restore, paused, created, image (test/bench/snapshotTiers.ts; BENCH_TIER_ROUNDS,
// default 10), with the memory each holds at zero instances and the snapshot's size and time.
// Every container it creates is removed at the end. It measures and never fails on timings.
import { cpus, loadavg } from 'node:os';
import { InstanceFactory, type WarmStrategy } from '../../reference-app/server/hosting/instances';
import { limitsFor } from '../../reference-app/server/hosting/limits';
import { runscUnavailableReason } from '../../scripts/engine.mjs';
import { engineSkipReason, FIXTURE_IMAGE, startTestEngine } from '../setup/containerEngine';
import { measureServeTiers, serveTiersSkipReason, TIERS } from './snapshotTiers';

const COLD = Number(process.env.BENCH_COLD ?? 15);
const TIER_ROUNDS = Number(process.env.BENCH_TIER_ROUNDS ?? 10);

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

type Sandbox = 'none' | 'gvisor';
interface Row {
  tier: string;
  technique: string;
  p50: number;
  p99: number;
  stages: string;
}

const TECHNIQUES: Record<WarmStrategy, string> = {
  none: 'baseline: create + start + answer',
  created: 'created ahead, start + answer',
  paused: 'paused pool, unpause + answer',
};

/** The cold starts of each technique and the warm answer, on one engine (runc or runsc). */
async function measure(sandbox: Sandbox): Promise<{ rows: Row[]; results: Record<string, number[]> }> {
  const tier = sandbox === 'gvisor' ? 'gVisor (runsc)' : 'runc';
  const testEngine = await startTestEngine({ sandbox });
  const rows: Row[] = [];
  const results: Record<string, number[]> = {};
  try {
    const factory = new InstanceFactory(
      testEngine.engine,
      {
        deploymentId: testEngine.deploymentId('bench'),
        image: FIXTURE_IMAGE,
        port: 8080,
        limits: limitsFor({ memoryMb: 512 }),
        gpu: 'none',
      },
      { healthPath: '/openapi.json', readyTimeoutMs: 30_000 },
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
        tier,
        technique: TECHNIQUES[technique],
        p50: percentile(times, 0.5),
        p99: percentile(times, 0.99),
        stages: Object.entries(stageTotals)
          .map(([stage, v]) => `${stage} ${Math.round(percentile(v, 0.5))}`)
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
    results.warm = warm;
    rows.push({ tier, technique: 'warm: running instance, answer', p50: percentile(warm, 0.5), p99: percentile(warm, 0.99), stages: '' });
    await factory.discard(instance.id);
    await factory.discardSpares();
  } finally {
    await testEngine.stop();
  }
  return { rows, results };
}

const runc = await measure('none');
const noGvisor = runscUnavailableReason();
if (noGvisor) console.log(`gVisor tier skipped: ${noGvisor}`);
const gvisor = noGvisor ? null : await measure('gvisor');

console.log(
  `\n${COLD} cold starts per technique, fixture image, ${cpus().length} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log('| tier | technique | p50 ms | p99 ms | stage p50s (ms) |\n|---|---|---:|---:|---|');
for (const r of [...runc.rows, ...(gvisor?.rows ?? [])]) {
  console.log(`| ${r.tier} | ${r.technique} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.stages} |`);
}
const summary = (results: Record<string, number[]>) => ({
  baseline_ms: Math.round(percentile(results.none!, 0.5)),
  cold_start_p50_ms: Math.round(percentile(results.paused!, 0.5)),
  cold_start_p99_ms: Math.round(percentile(results.paused!, 0.99)),
  warm_p50_ms: Math.round(percentile(results.warm!, 0.5) * 10) / 10,
});
const noTiers = noGvisor ?? serveTiersSkipReason();
if (noTiers) console.log(`snapshot tiers skipped: ${noTiers}`);
const tiers = noTiers ? null : await measureServeTiers(TIER_ROUNDS);
if (tiers) {
  console.log(
    `\n${TIER_ROUNDS} cold starts per tier, alternating, a limelight.serve app (32 MB set up) under gVisor, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('| tier | p50 ms | p95 ms | held at zero instances |\n|---|---:|---:|---:|');
  for (const tier of TIERS) {
    const held = tiers.heldMb[tier];
    console.log(
      `| ${tier} | ${percentile(tiers.times[tier], 0.5).toFixed(0)} | ${percentile(tiers.times[tier], 0.95).toFixed(0)} | ${held === null ? 'n/a' : `${held} MB`} |`,
    );
  }
  console.log(
    `snapshot: ${tiers.snapshot.sizeMb.toFixed(1)} MB on disk, taken in ${tiers.snapshot.tookMs} ms (start + setup + checkpoint; checkpoint ${tiers.snapshot.checkpointMs} ms)`,
  );
}
const tierSummary = tiers && {
  ...Object.fromEntries(TIERS.map((t) => [`${t}_p50_ms`, Math.round(percentile(tiers.times[t], 0.5))])),
  ...Object.fromEntries(TIERS.map((t) => [`${t}_p95_ms`, Math.round(percentile(tiers.times[t], 0.95))])),
  paused_held_mb: tiers.heldMb.paused,
  snapshot_mb: Math.round(tiers.snapshot.sizeMb * 10) / 10,
  snapshot_take_ms: tiers.snapshot.tookMs,
};
console.log(
  JSON.stringify({
    bench: 'hosting',
    ...summary(runc.results),
    ...(gvisor ? { gvisor: summary(gvisor.results) } : {}),
    ...(tierSummary ? { tiers: tierSummary } : {}),
  }),
);
