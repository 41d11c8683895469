import { expect, test, type Page } from '@playwright/test';

// Transfer budgets per route (docs/deploy.md, "Lean first load"): what Chromium actually moves
// over the wire (compressed bodies as received) until the page is loaded and the network is
// idle, i.e. before a visitor can use it. Sizes are deterministic for a given build; a budget
// that fails means a change made a route heavier: lazy-load it or raise the budget knowingly.

interface Budget {
  /** JavaScript bytes over the wire (encoded, as received). */
  jsBytes: number;
  /** Script requests (module entries and their static and lazy chunks). */
  scripts: number;
  /** Everything the page loads: HTML, JS, CSS, JSON, images. */
  totalBytes: number;
}

const KB = 1024;
const ROUTES: Record<string, Budget> = {
  '/': { jsBytes: 150 * KB, scripts: 15, totalBytes: 400 * KB },
  '/APIs/Overview': { jsBytes: 170 * KB, scripts: 20, totalBytes: 400 * KB },
  '/APIs/service/black-forest-labs/flux-schnell': { jsBytes: 200 * KB, scripts: 25, totalBytes: 450 * KB },
  '/Pricing': { jsBytes: 170 * KB, scripts: 20, totalBytes: 400 * KB },
  '/Hosting': { jsBytes: 170 * KB, scripts: 20, totalBytes: 400 * KB },
  '/signinup': { jsBytes: 170 * KB, scripts: 20, totalBytes: 400 * KB },
  '/Company': { jsBytes: 150 * KB, scripts: 15, totalBytes: 350 * KB },
  '/terms_of_service': { jsBytes: 150 * KB, scripts: 15, totalBytes: 350 * KB },
  '/privacy_policy': { jsBytes: 150 * KB, scripts: 15, totalBytes: 350 * KB },
  '/Subscribe': { jsBytes: 170 * KB, scripts: 20, totalBytes: 400 * KB },
  '/404': { jsBytes: 150 * KB, scripts: 15, totalBytes: 350 * KB },
};

interface Transfer {
  url: string;
  type: string;
  bytes: number;
  encoding: string;
}

async function loadAndMeasure(page: Page, route: string) {
  const pending: Promise<Transfer>[] = [];
  page.on('requestfinished', (request) => {
    pending.push(
      (async () => {
        const response = await request.response();
        const sizes = await request.sizes();
        return {
          url: request.url(),
          type: request.resourceType(),
          bytes: sizes.responseBodySize,
          encoding: (await response?.headerValue('content-encoding')) ?? 'identity',
        };
      })(),
    );
  });
  await page.goto(route, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  const transfers = await Promise.all(pending);
  const scripts = transfers.filter((t) => t.type === 'script');
  return {
    transfers,
    scripts,
    jsBytes: scripts.reduce((sum, t) => sum + t.bytes, 0),
    totalBytes: transfers.reduce((sum, t) => sum + t.bytes, 0),
  };
}

for (const [route, budget] of Object.entries(ROUTES)) {
  test(`${route} stays within its transfer budget`, async ({ page }, info) => {
    const measured = await loadAndMeasure(page, route);
    info.annotations.push({
      type: 'transfer',
      description: `${route}: ${measured.scripts.length} scripts, ${(measured.jsBytes / KB).toFixed(1)} KB JS, ${(measured.totalBytes / KB).toFixed(1)} KB total`,
    });
    console.log(
      `${route}: ${measured.scripts.length} scripts, ${(measured.jsBytes / KB).toFixed(1)} KB JS, ${(measured.totalBytes / KB).toFixed(1)} KB total`,
    );
    // Every script and stylesheet arrives compressed; a plain one means the server lost it.
    const uncompressed = measured.transfers.filter((t) => (t.type === 'script' || t.type === 'stylesheet') && t.encoding === 'identity');
    expect(uncompressed.map((t) => t.url)).toEqual([]);
    expect(measured.scripts.length).toBeLessThanOrEqual(budget.scripts);
    expect(measured.jsBytes).toBeLessThanOrEqual(budget.jsBytes);
    expect(measured.totalBytes).toBeLessThanOrEqual(budget.totalBytes);
  });
}

test('home page: largest contentful paint within 1 s on loopback', async ({ page }) => {
  await page.goto('/', { waitUntil: 'load' });
  const lcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1]!.startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  console.log(`/ LCP ${Math.round(lcp)} ms`);
  expect(lcp).toBeGreaterThan(0);
  expect(lcp).toBeLessThanOrEqual(1000);
});
