import { CodeHighlightError } from './errors';

/**
 * Settles like `promise`, or rejects with a `timeout` CodeHighlightError after `ms` (product-rules §9:
 * 500 ms). A non-finite limit means none. The work itself goes on, so a slow first load still
 * warms the shared highlighter for the next block.
 *
 * The limit covers the whole wait: starting the highlighter worker, fetching grammar and theme
 * chunks (a slow network, a stalled chunk) and tokenising, which runs in the worker and so no
 * longer blocks the page while the timer runs (see test/bench/code.bench.ts for the cold figures).
 */
export function withTimeLimit<T>(promise: Promise<T>, ms: number): Promise<T> {
  if (!Number.isFinite(ms)) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new CodeHighlightError('timeout', `The code highlighter did not answer within ${ms} ms.`)),
      Math.max(0, ms),
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
