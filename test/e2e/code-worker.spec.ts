import { expect, test, type Worker } from '@playwright/test';

// Code highlighting off the main thread (docs/architecture.md, "Code highlighting off the main
// thread"): shiki runs in a Web Worker, so a highlight leaves the page's main thread free. The
// long-task check is a correctness check, not a benchmark: it looks only at the span of the
// highlight (from the moment the code viewers show their loading state until all three show
// highlighted code), when the main thread has nothing to do but wait for the worker and render
// its answer, and it asserts that no task in that span reached 50 ms, Chromium's long-task line.

const SERVICE = '/APIs/service/black-forest-labs/flux-schnell';
/**
 * Chunks of shiki a page would fetch to highlight itself: the in-page fallback (core and regex
 * engine), the grammars and the theme the samples use. (The worker's own script, which bundles
 * shiki's core, is fetched by the page to start it, and evaluated only in the worker.)
 */
const SHIKI_CHUNK = /\/assets\/(highlighter|python|javascript|shellscript|bash|dark-plus)-[\w-]+\.js$/;

interface HighlightRecord {
  longTasks: { start: number; duration: number }[];
  loadingAt: number | null;
  highlightedAt: number | null;
}

declare global {
  interface Window {
    __highlight?: HighlightRecord;
  }
}

test("service page: the API tab's samples are highlighted in the worker, with no main-thread task of 50 ms or more meanwhile", async ({
  page,
}) => {
  const workers: Worker[] = [];
  page.on('worker', (worker) => workers.push(worker));
  await page.goto(SERVICE, { waitUntil: 'load' });
  await expect(page.getByRole('tab', { name: 'Playground', selected: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Nothing of the code viewer has loaded yet: the API tab mounts when first opened.
  expect(workers).toEqual([]);

  await page.evaluate(() => {
    const record: HighlightRecord = { longTasks: [], loadingAt: null, highlightedAt: null };
    window.__highlight = record;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) record.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask' });
    new MutationObserver(() => {
      const states = [...document.querySelectorAll('[role="tabpanel"]:not([hidden]) [data-lime="code-viewer"]')].map((viewer) =>
        viewer.getAttribute('data-state'),
      );
      if (record.loadingAt === null && states.includes('loading')) record.loadingAt = performance.now();
      if (record.highlightedAt === null && states.length === 3 && states.every((state) => state === 'highlighted')) {
        record.highlightedAt = performance.now();
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
  });

  await page.getByRole('tab', { name: 'API' }).click();
  const viewers = page.locator('[role="tabpanel"]:not([hidden]) [data-lime="code-viewer"]');
  await expect(viewers).toHaveCount(3);
  for (let i = 0; i < 3; i++) await expect(viewers.nth(i)).toHaveAttribute('data-state', 'highlighted');
  await expect(viewers.nth(1).getByRole('group', { name: 'Python' })).toContainText('import');

  // The highlighter worker was started, and shiki's chunks were fetched by it, not by the page.
  const worker = workers.find((w) => /\/assets\/highlightWorker-[\w-]+\.js$/.test(w.url()));
  expect(worker, workers.map((w) => w.url()).join(', ')).toBeDefined();
  const pageScripts = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
  expect(pageScripts.filter((url) => SHIKI_CHUNK.test(url))).toEqual([]);
  const workerScripts = await worker!.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
  expect(workerScripts.filter((url) => /\/assets\/(python|dark-plus)-/.test(url))).toHaveLength(2);

  const record = (await page.evaluate(() => window.__highlight))!;
  // The viewers were seen loading, so the span below is a real highlight, not a cached answer.
  expect(record.loadingAt).not.toBeNull();
  expect(record.highlightedAt).not.toBeNull();
  const during = record.longTasks.filter((task) => task.start >= record.loadingAt! && task.start <= record.highlightedAt!);
  console.log(
    `highlight span ${Math.round(record.highlightedAt! - record.loadingAt!)} ms; long tasks in it: ${JSON.stringify(during)}; outside it: ${record.longTasks.length - during.length}`,
  );
  expect(during).toEqual([]);
});
