import { expect, test, type Page } from '@playwright/test';
import { axeAudit } from './support/axe';

// The docs on the site (issue 50, item 5): reached from the header's Docs menu (desktop and the
// mobile drawer), searched with the site's search engine, the API reference generated from the
// OpenAPI document; each page with its own title, no axe violations, no sideways scroll at 390 px,
// and whole without JavaScript. The server's HTML page by page: test/integration/site/docs.test.ts.

/** Console errors and warnings (a hydration mismatch is one) and requests to other hosts. */
function watch(page: Page, origin: string) {
  const problems: string[] = [];
  const outside: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== origin) outside.push(request.url());
  });
  return { problems, outside };
}

const hydrated = (page: Page) =>
  page.waitForFunction(() => Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer')));

async function expectNoViolations(page: Page) {
  const results = await axeAudit(page).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
}

test('the Docs menu opens the docs; the search finds a guide by a word in its body', async ({ page, baseURL }) => {
  const { problems, outside } = watch(page, new URL(baseURL!).origin);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Docs' }).click();
  await page.getByRole('link', { name: 'All docs' }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page).toHaveTitle('Documentation · Limelight');
  await expect(page.getByRole('heading', { level: 1, name: 'Documentation' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Quick start' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Publish a service' }).first()).toHaveAttribute('href', '/docs/publishing');
  await hydrated(page);
  await expectNoViolations(page);

  // A word from the body of the job API guide's webhooks section, not from any title.
  const search = page.getByRole('searchbox', { name: 'Search the docs' });
  await search.fill('webhook-signature');
  const results = page.getByRole('list', { name: 'Search results' });
  const hit = results.getByRole('link', { name: /Webhooks.*Running services/ }).first();
  await expect(hit).toHaveAttribute('href', '/docs/run#webhooks');
  await expect(page.getByRole('status').filter({ hasText: /result/ })).toBeVisible();
  // Keyboard: Tab from the field reaches the results.
  await search.focus();
  await page.keyboard.press('Tab');
  await expect(results.getByRole('link').first()).toBeFocused();
  await hit.click();
  await expect(page).toHaveURL(/\/docs\/run#webhooks$/);
  await expect(page).toHaveTitle('Running services · Limelight');
  await expect(page.locator('h2#webhooks')).toBeInViewport();
  await hydrated(page);
  await expectNoViolations(page);
  expect(problems).toEqual([]);
  expect(outside).toEqual([]);
});

test('the Docs menu opens the API reference: every route of the OpenAPI document, samples in three languages', async ({
  page,
  baseURL,
}) => {
  // The page holds every route: its audit is the longest of these (axe over a large page).
  test.setTimeout(120_000);
  const { problems, outside } = watch(page, new URL(baseURL!).origin);
  await page.goto('/docs');
  const header = page.getByRole('navigation', { name: 'Main' });
  await header.getByRole('button', { name: 'Docs' }).click();
  await header.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page).toHaveTitle('API reference · Limelight');
  const create = page.locator('section#post-jobs');
  await expect(create.getByRole('heading', { name: 'POST /jobs' })).toBeVisible();
  await expect(create.getByText('service_id', { exact: true }).first()).toBeVisible();
  const openapi = await (await page.request.get('/v1/openapi.json')).json();
  const operations = Object.values(openapi.paths as Record<string, object>).flatMap((item) =>
    Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)),
  );
  await expect(page.locator('main section[id][aria-labelledby$="-title"]')).toHaveCount(operations.length);
  await hydrated(page);
  const tabs = create.getByRole('tablist', { name: 'Samples: POST /jobs' });
  await tabs.getByRole('tab', { name: 'cURL' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: 'Python' })).toHaveAttribute('aria-selected', 'true');
  await expect(create.getByRole('tabpanel')).toContainText('urllib.request');
  await expectNoViolations(page);

  expect(problems).toEqual([]);
  expect(outside).toEqual([]);
});

test('mobile: the drawer links the docs, and no docs page scrolls sideways at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await drawer.getByRole('link', { name: 'Quick start' }).click();
  await expect(page).toHaveURL(/\/docs\/quickstart$/);
  await expect(page).toHaveTitle('Quick start · Limelight');
  for (const path of ['/docs/quickstart', '/docs', '/docs/publishing', '/docs/api']) {
    await page.goto(path);
    await hydrated(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, path).toBeLessThanOrEqual(390);
  }
  await expectNoViolations(page);
});

test('without JavaScript the docs are whole: content, titles, code and the reference', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/docs/sdk');
  await expect(page).toHaveTitle('Client SDKs · Limelight');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /Python and JavaScript clients/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Client SDKs');
  await expect(page.locator('h2#install')).toBeVisible();
  await expect(page.locator('pre').first()).toBeVisible();
  // The search is a form: Enter asks the server, which answers with the results.
  await page.getByRole('searchbox', { name: 'Search the docs' }).fill('webhook-signature');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/docs\?q=webhook-signature$/);
  await expect(
    page
      .getByRole('list', { name: 'Search results' })
      .getByRole('link', { name: /Webhooks.*Running services/ })
      .first(),
  ).toHaveAttribute('href', '/docs/run#webhooks');
  await page.goto('/docs/api');
  await expect(page).toHaveTitle('API reference · Limelight');
  await expect(page.locator('section#post-jobs pre')).toContainText('curl -sS -X POST');
  await context.close();
});
