import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { RunContext, RunResult } from '../runtime';

// What every demo handler receives: the input, the queue's context and the pacing helpers that
// make a run look and behave like a real one (progress steps, prompt cancel, no long blocking).

export interface DemoPacing {
  /** Pause after each reported step, so a demo run takes a realistic 0.5–3 s; 0 in tests. */
  stepDelayMs: number;
}

export interface DemoJob {
  readonly input: Record<string, unknown>;
  readonly ctx: RunContext;
  /** Report progress, then pause for the configured step delay; throws once the job is aborted. */
  step(fraction: number, message: string): Promise<void>;
  /** Pause for a fraction of a step (streamed tokens, frames); throws once the job is aborted. */
  pause(share: number): Promise<void>;
  /** Let the event loop run between chunks of CPU work; throws once the job is aborted. */
  breathe(): Promise<void>;
}

export interface DemoHandler {
  /** Names the handler in errors and docs, e.g. "text-to-image". */
  readonly id: string;
  run(job: DemoJob): Promise<RunResult>;
}

// Rethrows the queue's own reason (an AbortError DOMException by default, or its TimeoutError),
// so the queue can tell a cancel from a time-out.
const throwIfAborted = (signal: AbortSignal) => signal.throwIfAborted();

async function wait(ms: number, signal: AbortSignal): Promise<void> {
  throwIfAborted(signal);
  if (ms <= 0) {
    await nextTurn();
  } else {
    // node's timer rejects with its own AbortError; report the signal's reason instead.
    await sleep(ms, undefined, { signal }).catch(() => undefined);
  }
  throwIfAborted(signal);
}

export function createDemoJob(input: Record<string, unknown>, ctx: RunContext, pacing: DemoPacing): DemoJob {
  const { signal } = ctx;
  return {
    input,
    ctx,
    async step(fraction, message) {
      throwIfAborted(signal);
      ctx.progress(Math.min(1, Math.max(0, fraction)), message);
      await wait(pacing.stepDelayMs, signal);
    },
    pause: (share) => wait(pacing.stepDelayMs * share, signal),
    breathe: () => wait(0, signal),
  };
}

/** True for about `steps` evenly spaced items out of `count`: where a progress step is reported. */
export const isMilestone = (index: number, count: number, steps = 8) =>
  Math.floor((steps * (index + 1)) / count) > Math.floor((steps * index) / count);
