import { expect, test, type Page } from '@playwright/test';
import { axeAudit } from './support/axe';
import { confirmedAccount, signInByApi } from './support/accounts';

// Issue 50, items 6 and 7, on the built site: no public page scrolls sideways on a 390 px phone,
// before a run and after one (the recent runs' label was the run's input JSON, one unbroken
// string that widened the Playground to 580-597 px); the dashboard's recent runs pass axe,
// target-size included; the Hosting table keeps its Delete buttons inside its panel.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const PASSWORD = 'overflow-pw-1';
/** An image service with a file input (its drop zone) and an image output. */
const IMAGE_SERVICE = 'lime-cutout';
/** An image service with a prompt. */
const PROMPT_SERVICE = 'lime-diffusion-xl';
const PUBLIC_PAGES = [
  '/',
  '/APIs/Overview',
  `/APIs/service/${IMAGE_SERVICE}`,
  `/APIs/service/${PROMPT_SERVICE}`,
  '/Pricing',
  '/company',
  '/signinup',
];
/** One unbroken string as a prompt: the label must not widen the Playground by it. */
const LONG_PROMPT = 'a-lime-on-a-desk-'.repeat(10);

const liveStatus = (page: Page) => page.locator('[data-lime="runner-status"] [role="status"]');
const recentRuns = (page: Page) => page.getByRole('region', { name: 'Your recent runs' });

/** How far the page scrolls sideways past the phone's width (0: not at all). */
const sideways = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
/** How far the Playground's content sticks out of its card (0: not at all). */
const runnerOverflow = (page: Page) =>
  page
    .locator('[data-lime="service-runner"]')
    .first()
    .evaluate((el) => el.scrollWidth - el.clientWidth);

async function overflowingPages(page: Page): Promise<string[]> {
  const problems: string[] = [];
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    await expect(page.locator('main').first()).toBeVisible();
    // The catalogue's cards and the Playground arrive after the first paint.
    if (path.startsWith('/APIs/service/')) await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeVisible();
    if (path === '/APIs/Overview') await expect(page.locator('main li a').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    if (width > PHONE.width) problems.push(`${path}: ${width} px wide`);
    if (path.startsWith('/APIs/service/')) {
      await expect(recentRuns(page)).toBeVisible();
      const inside = await runnerOverflow(page);
      if (inside > 0) problems.push(`${path}: the Playground's content ${inside} px past its card`);
    }
  }
  return problems;
}

async function axeViolations(page: Page, rules?: string[]) {
  const audit = axeAudit(page);
  const results = await (rules ? audit.withRules(rules) : audit).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('at 390 px no public page scrolls sideways, before and after a run; the dashboard passes axe', async ({ page }) => {
  test.setTimeout(300_000);
  const email = await confirmedAccount(page.request, 'overflow', PASSWORD);
  await signInByApi(page, email, PASSWORD);
  await page.setViewportSize(PHONE);
  expect(await overflowingPages(page), 'before a run').toEqual([]);

  // A run of the prompt service with one long unbroken prompt.
  await page.goto(`/APIs/service/${PROMPT_SERVICE}`);
  await page.getByRole('textbox', { name: /Prompt/ }).fill(LONG_PROMPT);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(liveStatus(page)).toHaveText('Finished', { timeout: 90_000 });
  await expect(recentRuns(page).getByRole('listitem')).toHaveCount(1);
  expect(await recentRuns(page).locator('li [title]').textContent()).toBe(`${LONG_PROMPT.slice(0, 60)}…`);
  expect(await sideways(page), 'the Playground after a long prompt').toBeLessThanOrEqual(0);
  expect(await runnerOverflow(page), "the Playground's content after a long prompt").toBeLessThanOrEqual(0);

  // A run of the image service with its example file, then the same input again from the list.
  await page.goto(`/APIs/service/${IMAGE_SERVICE}`);
  const dropZone = page.locator('[data-lime="service-runner"] input[type="file"]').first();
  await expect(dropZone).toBeAttached();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(liveStatus(page)).toHaveText('Finished', { timeout: 90_000 });
  await expect(recentRuns(page).getByRole('listitem')).toHaveCount(1);
  await recentRuns(page)
    .getByRole('button', { name: /^Run again: / })
    .click();
  await expect(liveStatus(page)).toHaveText('Finished', { timeout: 90_000 });
  await expect(recentRuns(page).getByRole('listitem')).toHaveCount(2);
  expect(await sideways(page), 'the Playground after two runs').toBeLessThanOrEqual(0);
  expect(await runnerOverflow(page), "the Playground's content after two runs").toBeLessThanOrEqual(0);

  // The runs are labelled by their file's name, not their input's JSON.
  const labels = await recentRuns(page).locator('li [title]').allTextContents();
  expect(labels).toHaveLength(2);
  for (const label of labels) {
    expect(label).not.toContain('{');
    expect(label.length).toBeLessThanOrEqual(61);
  }
  // The drop zone and its file input stay inside the runner's card.
  const card = await page.locator('[data-lime="service-runner"]').first().boundingBox();
  const zone = await dropZone.locator('xpath=..').boundingBox();
  const input = await dropZone.boundingBox();
  expect(zone!.x + zone!.width).toBeLessThanOrEqual(card!.x + card!.width + 0.5);
  expect(input!.x + input!.width).toBeLessThanOrEqual(zone!.x + zone!.width + 0.5);

  expect(await overflowingPages(page), 'after two runs').toEqual([]);

  // The dashboard's recent runs: links big enough to hit (axe target-size), and the whole page clean.
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.goto('/account/dashboard');
    await expect(page.getByTestId('recent-runs').getByRole('link')).toHaveCount(3);
    await expect(page.getByTestId('calls-this-month')).toHaveText(/^\d[\d,]*$/);
    expect(await axeViolations(page, ['target-size']), `target-size at ${viewport.width} px`).toEqual([]);
    expect(await axeViolations(page), `axe at ${viewport.width} px`).toEqual([]);
  }
  // What the number counts, in words: requests with an API key, polls included (server/profile/usage.ts).
  await expect(page.getByRole('heading', { name: 'API requests this month' })).toBeVisible();
  await expect(page.getByTestId('calls-note')).toContainText('status polls included');
});

test("the Hosting table keeps each row's Delete inside its panel", async ({ page }) => {
  const email = await confirmedAccount(page.request, 'hosting-table', PASSWORD);
  await signInByApi(page, email, PASSWORD);
  const token = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.includes('auth-token'))!;
    return (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token;
  });
  // A container service: its runtime cell is the table's widest (the deployment's details), which
  // pushed the buttons past the panel. It waits for a runner (no fleet here), so nothing starts.
  const gpus = (await (await page.request.get('/v1/model_management/pricing_servers')).json()) as { id: string }[];
  const runtime = {
    type: 'container',
    image: 'docker.io/me/lime-never:1',
    gpu: gpus[0]!.id,
    min_instances: 0,
    max_instances: 1,
    idle_timeout_s: 60,
  };
  const headers = { Authorization: `Bearer ${token}` };
  const ids: string[] = [];
  for (const extra of [{ runtime }, {}]) {
    const created = await page.request.post('/v1/model_management/services', {
      headers,
      data: { display_name: `A lime service ${Date.now()}`, visibility: 'public', endpoints: [], ...extra },
    });
    expect(created.status(), await created.text()).toBe(201);
    ids.push(((await created.json()) as { id: string }).id);
  }
  await page.setViewportSize(DESKTOP);
  await page.goto('/account/hosting');
  await expect(page.getByRole('button', { name: /^Delete A lime service/ })).toHaveCount(2);
  const remove = page.getByRole('button', { name: /^Delete A lime service/ }).first();
  await expect(remove).toBeVisible();
  const button = (await remove.boundingBox())!;
  const scroller = (await remove.locator('xpath=ancestor::table/..').boundingBox())!;
  // Entirely inside the table's scroller, nothing cut off at its right edge.
  expect(button.x + button.width).toBeLessThanOrEqual(scroller.x + scroller.width + 0.5);
  // And the table fits its panel: no row needs the scroller to reach its buttons.
  expect(await remove.locator('xpath=ancestor::table/..').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  for (const id of ids) {
    const removed = await page.request.delete(`/v1/model_management/services/${encodeURIComponent(id)}`, { headers });
    expect(removed.ok(), await removed.text()).toBe(true);
  }
});

test('catalogue on a phone: the first cards on the first screen, the filters behind their button', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/APIs/Overview');
  const cards = page.getByRole('main').getByRole('listitem');
  await expect(cards.first()).toBeVisible();
  // The first card starts within the first screen, not below a screenful of filters.
  expect((await cards.first().boundingBox())!.y).toBeLessThan(PHONE.height);
  const toggle = page.getByRole('button', { name: 'Filters', exact: true });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  // The search box stays in view; the other filters wait behind the button.
  const filters = page.getByRole('region', { name: 'Filters' });
  await expect(filters.getByRole('searchbox', { name: 'Search the catalogue' })).toBeVisible();
  const hideDemos = filters.getByText('Hide demos');
  await expect(hideDemos).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(hideDemos).toBeVisible();
  await hideDemos.click();
  await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();
  expect(await sideways(page)).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
  // A wide screen shows every filter beside the results, with no button (a fresh page: closed).
  await page.setViewportSize(DESKTOP);
  await page.goto('/APIs/Overview');
  await expect(page.getByRole('button', { name: /^Filters/ })).toBeHidden();
  await expect(filters.getByText('Hide demos')).toBeVisible();
});
