import { expect, test, type Page } from '@playwright/test';

// The public pages come rendered by the server and hydrate (issue 39, item 1): with JavaScript,
// the console stays clean (a hydration mismatch is a console error) and the page answers input;
// without it, the content is there. Checked on the built app (dist/app and dist/server/ssr); the
// HTML itself, page by page, in test/integration/site/server-render.test.ts.

const SERVICE = '/APIs/service/black-forest-labs/flux-schnell';

/** Console errors and warnings, uncaught errors, and requests the page makes to other hosts. */
function watch(page: Page, origin: string) {
  const problems: string[] = [];
  const outside: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('request', (request) => {
    const url = new URL(request.url());
    // Images too: covers come from the site alone (issue 50; docs/security.md, "Covers").
    if (url.protocol.startsWith('http') && url.origin !== origin) outside.push(request.url());
  });
  return { problems, outside };
}

/** True once React has hydrated the root (it marks the element with its internal key). */
/** The service page's description as the page holds it (flux-schnell's has <i>FLUX</i>). */
const descriptionHtml = (page: Page) =>
  page
    .locator('article i', { hasText: 'FLUX' })
    .first()
    .evaluate((i) => i.parentElement!.innerHTML);

const hydrated = (page: Page) =>
  page.waitForFunction(() => Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer')));

test('public pages hydrate with a clean console, call no other host and answer input', async ({ page, baseURL }) => {
  const { problems, outside } = watch(page, new URL(baseURL!).origin);

  await page.goto('/');
  await hydrated(page);
  await expect(page.getByTestId('repo-stars')).toHaveText(/^\d+$/);
  await page.getByRole('button', { name: /Run AI/ }).click();
  await expect(page.locator('#how-it-works')).toHaveAttribute('data-state', 'open');

  await page.goto('/APIs/Overview?q=flux');
  await hydrated(page);
  const search = page.getByRole('searchbox', { name: 'Search the catalogue' });
  await expect(search).toHaveValue('flux');
  await expect(page.getByRole('link', { name: /flux-schnell/ }).first()).toBeVisible();
  await search.fill('whisper');
  await expect(page).toHaveURL(/q=whisper/);
  await expect(page.getByRole('link', { name: /openai\/whisper/ }).first()).toBeVisible();

  await page.goto(SERVICE);
  await hydrated(page);
  // The description's markup as the server sanitised it, kept by hydration.
  const served = await descriptionHtml(page);
  await page.getByRole('tab', { name: 'Docs' }).click();
  await expect(page.getByRole('region', { name: 'POST /generate' })).toBeVisible();

  await page.goto('/Pricing');
  await hydrated(page);
  await page.getByRole('link', { name: 'Hosting', exact: true }).first().click();
  await expect(page).toHaveURL(/\/Hosting$/);
  await expect(page).toHaveTitle('Hosting · Limelight');

  // The same service rendered by the browser alone (a client navigation): the same markup as the server's.
  await page.goto('/APIs/Overview?q=flux');
  await hydrated(page);
  await page
    .getByRole('link', { name: /flux-schnell/ })
    .first()
    .click();
  await expect(page).toHaveURL(SERVICE);
  await expect(page.locator('article i', { hasText: 'FLUX' })).toBeVisible();
  expect(await descriptionHtml(page)).toBe(served);

  expect(problems).toEqual([]);
  expect(outside).toEqual([]);
});

test('the catalogue hydrates with one page of results and the whole count, then pages through the whole catalogue', async ({
  page,
  baseURL,
  request,
}) => {
  const origin = new URL(baseURL!).origin;
  const { problems, outside } = watch(page, origin);
  const services = ((await (await request.get('/v1/model_management/model_descriptors')).json()) as unknown[]).length;
  await page.goto('/APIs/Overview');
  await hydrated(page);
  await expect(page.locator('#overview-results')).toHaveText(`${services} services`);
  // The pager counts the whole result set although the page holds one page of it.
  const pager = page.getByRole('navigation', { name: 'Pages' });
  await expect(pager).toContainText(/Page 1 of \d+/);
  const pages = Number(/Page 1 of (\d+)/.exec((await pager.textContent())!)![1]);
  expect(pages).toBeGreaterThan(1);
  const first = await page.locator('main ul a[href^="/APIs/service/"]').first().getAttribute('href');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(pager).toContainText(`Page 2 of ${pages}`);
  await expect(page.locator('main ul a[href^="/APIs/service/"]').first()).not.toHaveAttribute('href', first!);
  await expect(page.locator('#overview-results')).toHaveText(`${services} services`);
  expect(problems).toEqual([]);
  expect(outside).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a service page and the catalogue show their content', async ({ page }) => {
    await page.goto(SERVICE);
    await expect(page).toHaveTitle('black-forest-labs/flux-schnell · Limelight');
    await expect(page.getByRole('heading', { level: 1, name: 'black-forest-labs/flux-schnell' })).toBeVisible();
    await expect(page.getByText(/fastest image model of the FLUX family/)).toBeVisible();
    // Its description's markup, sanitised on the server as the browser would.
    await expect(page.locator('article i', { hasText: 'FLUX' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: /Prompt/ })).toBeVisible();

    await page.goto('/APIs/Overview?q=whisper');
    await expect(page.getByRole('link', { name: /openai\/whisper/ }).first()).toBeVisible();
  });
});
