import { expect, test } from '@playwright/test';
import { startEmbedServerFor, type EmbedServer } from './support/embed-server';

// A run from another origin (issue 24): the runner's script-tag bundle on a third-party page
// (test/fixtures/embed/runner.html, the snippet of docs/embeds.md, strict CSP, no inline
// script) talks to the platform server on another port. Run sends Idempotency-Key and the
// progress stream may send Last-Event-ID: both must pass the server's CORS preflight, or the
// runner reports "The run failed: Offline".

const DEMO = { email: 'demo@limelight.dev', password: 'limelight-demo' };

let embed: EmbedServer;

test.beforeAll(async ({ baseURL }) => {
  embed = await startEmbedServerFor(baseURL!);
});

test.afterAll(async () => {
  await embed?.close();
});

test('a cross-origin run: sign in from Run, the job finishes, and the page receives every envelope', async ({ page, baseURL }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  const preflights: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/v1/jobs')) preflights.push(Object.keys(request.headers()).join(','));
  });
  await page.addInitScript(() => {
    (window as unknown as { __csp: string[] }).__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { __csp: string[] }).__csp.push(e.violatedDirective));
  });

  // `?thumbnails`: the page's policy also allows images from the API origin (the output image).
  await page.goto(`${embed.url}/runner.html?thumbnails`);
  expect(new URL(embed.url).origin).not.toBe(new URL(baseURL!).origin);
  const runner = page.locator('lime-service-runner');
  const run = runner.getByRole('button', { name: 'Run', exact: true });
  await expect(run).toBeVisible({ timeout: 15_000 });
  await run.click();

  // Anonymous: the sign-in overlay opens inside the element; the run starts after it.
  const dialog = runner.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('E-mail').fill(DEMO.email);
  await dialog.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();

  const statuses = () =>
    page.evaluate(() =>
      ((window as unknown as { __limeEvents?: { detail: { status: string } }[] }).__limeEvents ?? []).map((e) => e.detail.status),
    );
  await expect.poll(statuses, { timeout: 45_000 }).toContain('FINISHED');
  expect(await statuses()).not.toContain('FAILED');
  await expect(runner.getByRole('img', { name: 'Generated image' })).toBeVisible();
  await expect(runner.getByText(/Offline/)).toHaveCount(0);
  // The run was sent with its Idempotency-Key, across origins.
  expect(preflights.some((names) => names.split(',').includes('idempotency-key'))).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
  expect(problems).toEqual([]);
});
