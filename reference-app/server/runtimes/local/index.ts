import type { RunContext, Runtime } from '../runtime';
import { handlerFor } from './dispatch';
import { createDemoJob, type DemoPacing } from './job';

// The embedded default runtime: every seeded service runs on this machine, without a GPU or the
// network, and produces a real output of its kind computed from the input (see the server README,
// "Local demo runtimes"). Jobs it runs are labelled `runtime: "local-demo"`.

export const LOCAL_DEMO = 'local-demo';

/** Step pause in production: about ten steps per run, so a run takes 1–2 s like a small model. */
export const DEFAULT_STEP_DELAY_MS = 150;

export function createLocalDemoRuntime(pacing: Partial<DemoPacing> = {}): Runtime {
  const stepDelayMs = pacing.stepDelayMs ?? DEFAULT_STEP_DELAY_MS;
  return {
    name: LOCAL_DEMO,
    async run(input: Record<string, unknown>, ctx: RunContext) {
      ctx.signal.throwIfAborted();
      const handler = handlerFor(ctx.endpoint);
      return handler.run(createDemoJob(input ?? {}, ctx, { stepDelayMs }));
    },
  };
}

/** Step pause from `LOCAL_DEMO_STEP_MS` (e.g. 0 for fast end-to-end tests), else the default. */
export function stepDelayFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env.LOCAL_DEMO_STEP_MS;
  if (raw === undefined || raw === '') return DEFAULT_STEP_DELAY_MS;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`LOCAL_DEMO_STEP_MS must be a number of milliseconds ≥ 0, got "${raw}"`);
  return value;
}

export const localDemoRuntime: Runtime = createLocalDemoRuntime({ stepDelayMs: stepDelayFromEnv() });
