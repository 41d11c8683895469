import { axeAudit } from './support/axe';
import { expect, test, type Page } from '@playwright/test';

// Cost before running (issue 25, item 9): anonymous visitors see the price basis (the GPU's price
// per second, no invented duration) instead of "No estimate yet"; after a run the signed-in
// estimate is that run's measured cost. lime-vision: a service no other journey runs, on a real
// model (OpenCV on the CPU), priced per CPU-second; a demo service's runs are free and show no
// price (issue 50, honest-demos.spec.ts).

const SERVICE = 'lime-vision';
const DEMO = { email: 'demo@limelight.dev', password: 'limelight-demo' };
const estimate = (page: Page) => page.locator('[data-lime="runner-estimate"]');

test('an anonymous visitor sees the price per second of what runs the service (its CPU here)', async ({ page }) => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`/APIs/service/${SERVICE}`);
    await expect(estimate(page)).toContainText(/\d\.\d{4} credits\/s on \S+/);
    await expect(estimate(page)).not.toContainText('No estimate yet');
    const results = await axeAudit(page).analyze();
    expect(results.violations.map((v) => `${viewport.width}px ${v.id}`)).toEqual([]);
  }
});

test('after a run the estimate is the measured cost of that run', async ({ page }) => {
  await page.goto('/signinup?page_state=1');
  await page.getByLabel('E-mail').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/account/);
  await page.goto(`/APIs/service/${SERVICE}`);
  await expect(estimate(page)).toContainText('credits/s on CPU');
  // The form is filled in with the example's photo (seed/examples.ts): run it as it is.
  await expect(page.locator('[data-lime="runner-example-input"]')).toContainText('Filled in with the example input');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('[data-lime="runner-status"] [role="status"]')).toHaveText('Finished', { timeout: 30_000 });

  const token = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.includes('auth'));
    return key ? (JSON.parse(localStorage.getItem(key)!) as { access_token?: string }).access_token : undefined;
  });
  expect(token).toBeTruthy();
  const jobs = await page.request.get(`/v1/jobs?service_id=${SERVICE}&limit=1`, { headers: { Authorization: `Bearer ${token}` } });
  const [job] = ((await jobs.json()) as { jobs: Array<{ metrics: { cost_credits: number } }> }).jobs;
  await expect(estimate(page)).toContainText(`≈ ${job!.metrics.cost_credits} credits`);
  await expect(estimate(page)).toContainText('(the last run)');
});
