import { describe, expect, it } from 'vitest';
import { createLocalDemoRuntime } from '../../../../reference-app/server/runtimes/local';
import { ENDPOINTS } from '../../../../reference-app/server/seed/endpoints';
import { testContext, runtime } from './harness';

// Cancel: a run stops at its next step once ctx.signal aborts, and reports the signal's reason.

const KINDS: [string, Record<string, unknown>][] = [
  ['text2img', { prompt: 'a castle', width: 256, height: 256 }],
  ['llm', { messages: [{ role: 'user', content: 'Write a long story about a dragon and a knight' }] }],
  ['tts', { text: 'A fairly long sentence to speak, so that there are several chunks to go through.' }],
  ['music', { prompt: 'calm piano', duration_s: 10 }],
  ['text2video', { prompt: 'flying birds', duration_s: 2 }],
];

describe('cancel', () => {
  it.each(KINDS)('%s stops within one step of the abort and rejects with an AbortError', async (kind, input) => {
    let abortedAt = 0;
    const recorded = testContext(ENDPOINTS[kind][0], {
      onProgress: (count, controller) => {
        if (count === 2) {
          abortedAt = count;
          controller.abort();
        }
      },
    });
    const error = await runtime.run(input, recorded.ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(abortedAt).toBe(2);
    expect(recorded.progress.length).toBeLessThanOrEqual(3);
    expect(recorded.media.size).toBe(0);
  });

  it('does not start when the signal is already aborted, and keeps the queue’s reason', async () => {
    const recorded = testContext(ENDPOINTS.text2img[0]);
    recorded.controller.abort(new DOMException('time limit reached', 'TimeoutError'));
    await expect(runtime.run({ prompt: 'x' }, recorded.ctx)).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(recorded.progress).toHaveLength(0);
  });

  it('stops promptly during a step pause, long before the pause would end', async () => {
    const slow = createLocalDemoRuntime({ stepDelayMs: 60_000 });
    const recorded = testContext(ENDPOINTS.text2img[0], { onProgress: (_n, controller) => setTimeout(() => controller.abort(), 20) });
    const started = process.hrtime.bigint();
    await expect(slow.run({ prompt: 'x', width: 64, height: 64 }, recorded.ctx)).rejects.toMatchObject({ name: 'AbortError' });
    // A bound on behaviour (the pause is interrupted), not a speed measurement: 60 s vs seconds.
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(30);
    expect(recorded.progress).toHaveLength(1);
  });
});
