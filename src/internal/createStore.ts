import { createStore as createXStateStore } from '@xstate/store';

/**
 * @xstate/store's `createStore`, without its one call to `Math.random()`: the store's
 * `sessionId`, which only inspection tools read. Components make their stores while they render
 * (a `useState` initializer), and Next.js's prerender with `cacheComponents` rejects
 * `Math.random()` in a Client Component's render ("encountered the unstable value
 * `Math.random()`"), so ServiceSearch, AuthDialog and ServiceRunner could not sit in a Server
 * Component page (docs/frameworks.md). For the length of the call the id comes from a counter.
 */
export const createStore = ((...args: Parameters<typeof createXStateStore>) => {
  const random = Math.random;
  Math.random = nextSessionFraction;
  try {
    return createXStateStore(...args);
  } finally {
    Math.random = random;
  }
}) as typeof createXStateStore;

let sessions = 0;
/** Distinct fractions in [0, 1) (golden-ratio steps), for distinct session ids. */
function nextSessionFraction(): number {
  sessions += 1;
  return (sessions * 0.6180339887498949) % 1;
}
