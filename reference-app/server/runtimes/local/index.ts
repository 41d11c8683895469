import type { RunContext, Runtime, RuntimeSlots } from '../runtime';
import { handlerFor } from './dispatch';
import { DEFAULT_STEP_DELAY_MS } from '../config';
import { createDemoJob, type DemoPacing } from './job';

export { DEFAULT_STEP_DELAY_MS };

// The embedded default runtime: every seeded service runs on this machine, without a GPU or the
// network, and produces a real output of its kind computed from the input (see the server README,
// "Local demo runtimes"). Jobs it runs are labelled `runtime: "local-demo"`.

export const LOCAL_DEMO = 'local-demo';
/** Its jobs compute on this machine: the local slot pool. */
export const LOCAL_DEMO_SLOTS: RuntimeSlots = { name: LOCAL_DEMO, pool: 'local' };

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

/** The demo runtime at its default pace (the registry makes one paced by LOCAL_DEMO_STEP_MS). */
export const localDemoRuntime: Runtime = createLocalDemoRuntime();
