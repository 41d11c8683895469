import { CodeHighlightError } from './errors';

/**
 * Settles like `promise`, or rejects with a `timeout` CodeHighlightError after `ms` (product-rules §9:
 * 500 ms). A non-finite limit means none. The work itself goes on, so a slow first load still
 * warms the shared highlighter for the next block.
 *
 * What the limit cuts short is the waiting that can stall: starting the highlighter worker and
 * fetching grammar and theme chunks (a slow network, a stalled chunk). `clockStops` settles when
 * that is over and tokenising has begun (HighlightOptions.onTokenising); from then on the
 * highlight always finishes and the clock no longer runs, so code whose chunks arrived in time is
 * shown highlighted, as when tokenising ran on the page and no timer could interrupt it (see
 * test/bench/code.bench.ts for the cold figures).
 */
export function withTimeLimit<T>(promise: Promise<T>, ms: number, clockStops?: Promise<unknown>): Promise<T> {
  if (!Number.isFinite(ms)) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new CodeHighlightError('timeout', `The code highlighter did not answer within ${ms} ms.`)),
      Math.max(0, ms),
    );
    const stop = () => clearTimeout(timer);
    clockStops?.then(stop, stop);
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}
