// How fast the site's pages reach a visitor (issue 39: "largest contentful paint of a service page
// ≤ 800 ms on this machine in the delivery bench"):
//   npm run bench delivery
// Starts the production build (dist/server/main.mjs, as server.bench.ts does) and loads each page
// in Debian's Chromium through playwright-core, each load in a fresh context (no cache, no
// session). It reports the time to the first byte and the largest contentful paint (the browser's
// PerformanceObserver 'largest-contentful-paint', buffered) and what the largest element was: the
// first load after the server starts (the first server render, which makes the description
// purifier) apart from the warm loads after it (BENCH_LOADS, default 5; median and worst).
// Measures, never fails on timings. BENCH_ONLY=<text> keeps the pages whose path contains it.
import { loadavg } from 'node:os';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumExecutable } from '../setup/chromium';
import { launchPlatformServer } from './serverLaunch';

const PAGES = ['/APIs/service/lime-diffusion-xl', '/APIs/service/sketch-to-render', '/'];
const loads = Number(process.env.BENCH_LOADS ?? 5);
const only = process.env.BENCH_ONLY;

interface Load {
  ttfb: number;
  lcp: number;
  element: string;
}

async function loadOnce(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    return await page.evaluate(
      () =>
        new Promise<Load>((resolve) => {
          const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
          // The last entry reported is the largest paint; input would end the observation, none comes.
          new PerformanceObserver((list) => {
            const entries = list.getEntries() as Array<PerformanceEntry & { element?: Element | null }>;
            const last = entries[entries.length - 1]!;
            const element = last.element;
            setTimeout(
              () =>
                resolve({
                  ttfb: navigation!.responseStart,
                  lcp: last.startTime,
                  element: element
                    ? `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.className ? `.${String(element.className).split(' ')[0]}` : ''}`
                    : '?',
                }),
              300,
            );
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
  } finally {
    await context.close();
  }
}

const ms = (n: number) => `${Math.round(n)} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const server = await launchPlatformServer({ workers: 1 });
const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
try {
  console.log(`delivery: ${server.kind}, production build, Chromium at 1280×800, load average ${loadavg()[0]!.toFixed(2)}`);
  console.log('| page | first load: TTFB / LCP | warm: TTFB p50 / LCP p50 / LCP max | largest element |');
  console.log('|---|---|---|---|');
  for (const path of PAGES.filter((p) => !only || p.includes(only))) {
    const first = await loadOnce(browser, server.url + path);
    const warm: Load[] = [];
    for (let i = 0; i < loads; i++) warm.push(await loadOnce(browser, server.url + path));
    const lcps = warm.map((l) => l.lcp);
    console.log(
      `| ${path} | ${ms(first.ttfb)} / ${ms(first.lcp)} | ${ms(median(warm.map((l) => l.ttfb)))} / ${ms(median(lcps))} / ${ms(Math.max(...lcps))} | ${warm.at(-1)!.element} |`,
    );
  }
} finally {
  await browser.close();
  await server.close();
}
