import { axeAudit } from './support/axe';
import { expect, test } from '@playwright/test';
import { confirmedAccount, signInByApi } from './support/accounts';

// The account area as a new user and a publisher meet it on a phone and a desktop (issue 25):
// nothing scrolls sideways at 390 px, axe stays clean at both widths, the greeting fits the user.

const PUBLISHER = { email: 'publisher@limelight.dev', password: 'limelight-publisher' };
const ACCOUNT_PAGES = [
  '/account/dashboard',
  '/account/api-keys',
  '/account/profile',
  '/account/billing',
  '/account/hosting',
  '/account/hostingActive2',
  '/account/support',
];

// Signed in by the auth API: these journeys test the account area, not the sign-in page (auth.spec.ts).
const signIn = signInByApi;

test.describe('account pages on a phone and a desktop (issue 25, items 5 and 10)', () => {
  test('no account page scrolls sideways at 390 px, and axe is clean at 390 and 1280 px', async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, PUBLISHER.email, PUBLISHER.password);
    const viewports = [
      { width: 390, height: 844 },
      { width: 1280, height: 900 },
    ];
    // One load per page, checked at both widths (the layout follows the width by CSS alone).
    for (const path of ACCOUNT_PAGES) {
      await page.setViewportSize(viewports[0]!);
      await page.goto(path);
      await expect(page.locator('main h1').first()).toBeVisible();
      // Let the panels load their data (tables are the widest part).
      await page.waitForLoadState('networkidle');
      for (const viewport of viewports) {
        await page.setViewportSize(viewport);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} at ${viewport.width} px`).toBe(0);
        const results = await axeAudit(page).analyze();
        expect(
          results.violations.map((v) => v.id),
          `${path} at ${viewport.width} px`,
        ).toEqual([]);
      }
    }
  });

  test('a new user is welcomed, a returning one welcomed back', async ({ page, request, browser }) => {
    const password = 'lime-new-user-1';
    const email = await confirmedAccount(request, 'welcome', password);
    await signIn(page, email, password);
    await page.goto('/account/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${email}`);
    const returning = await browser.newContext();
    const other = await returning.newPage();
    await signIn(other, PUBLISHER.email, PUBLISHER.password);
    await other.goto('/account/dashboard');
    await expect(other.getByRole('heading', { level: 1 })).toHaveText(`Welcome back, ${PUBLISHER.email}`);
    await returning.close();
  });

  test('sign-in shows only the providers the auth server turned on (GitHub here) and a show-password toggle', async ({ page, request }) => {
    const config = (await (await request.get('/config.json')).json()) as { authKey: string };
    const settings = (await (await request.get('/auth/v1/settings', { headers: { apikey: config.authKey } })).json()) as {
      external: Record<string, boolean>;
    };
    expect(settings.external.google).toBe(false);
    await page.goto('/signinup?page_state=1');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: /^Continue with / })).toHaveText(['Continue with GitHub']);
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('secret-lime');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await expect(password).toHaveValue('secret-lime');
  });

  test('profile: a 422 shows on its field; the country is a picker of localised names that saves the ISO code', async ({
    page,
    request,
  }) => {
    const password = 'lime-profile-1';
    const email = await confirmedAccount(request, 'profile', password);
    await signIn(page, email, password);
    await page.goto('/account/profile');
    const mobile = page.getByLabel('Mobile');
    await mobile.fill('call me maybe');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(mobile).toHaveAttribute('aria-invalid', 'true');
    await expect(mobile).toHaveAccessibleDescription('must be a phone number such as +49 30 1234567');
    await mobile.fill('+49 30 1234567');
    await expect(mobile).not.toHaveAttribute('aria-invalid', 'true');
    const country = page.getByRole('combobox', { name: 'Country code' });
    await country.selectOption({ label: 'Germany' });
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile updated')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Country code' })).toHaveValue('DE');
    expect(
      await axeAudit(page)
        .include('form')
        .analyze()
        .then((r) => r.violations.map((v) => v.id)),
    ).toEqual([]);
  });

  test('a service whose picture fails to load gets a neutral monogram on its card and page; the header search keeps the 404 image', async ({
    page,
  }) => {
    // Every service has a cover now (issue 50): gemma's designed cover failing to load is the case left.
    await page.route('**/media/covers/**', (route) => route.abort());
    await page.goto('/APIs/service/google-deepmind/gemma-2-9b-it');
    const picture = page.locator('article [data-placeholder="monogram"]').first();
    await expect(picture).toHaveText('G2');
    // Centred on the service page (issue 39, item 3): the letters' box sits in the middle of the square.
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      const offset = await picture.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const text = range.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        return {
          x: Math.abs(text.left + text.width / 2 - (box.left + box.width / 2)),
          y: Math.abs(text.top + text.height / 2 - (box.top + box.height / 2)),
        };
      });
      expect(offset.x, `${viewport.width} px`).toBeLessThan(4);
      expect(offset.y, `${viewport.width} px`).toBeLessThan(4);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.locator('article img[src^="data:image/svg+xml"]')).toHaveCount(0);
    await page.goto('/APIs/Overview?q=gemma');
    const card = page.getByRole('link', { name: /gemma-2-9b-it/ });
    await expect(card.locator('[data-placeholder="monogram"]')).toHaveText('G2');
    // The product rules' fallback image stays in the header search's results. The catalogue is
    // server-rendered: text typed before the header search has hydrated is not seen by it (CI's
    // fresh clone once typed into the server's markup), so the typing is repeated until it is.
    const search = page.getByRole('combobox', { name: /Search services/ });
    await expect(async () => {
      await search.fill('');
      await search.fill('gemma-2-9b');
      await expect(page.getByRole('listbox').locator('img[src^="data:image/svg+xml"]').first()).toBeAttached({ timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
  });
});

test.describe('the account area as a product (issue 39, item 4)', () => {
  test('API keys on their own page: name, what a key can do, created and last used; Delete styled as destructive', async ({
    page,
    request,
  }) => {
    const password = 'lime-keys-page-1';
    const email = await confirmedAccount(request, 'keys-page', password);
    await signIn(page, email, password);
    await page.goto('/account/dashboard');
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'API keys' }).click();
    await expect(page).toHaveURL(/\/account\/api-keys$/);
    await expect(page).toHaveTitle(/^API keys · /);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('API keys');
    await page.getByRole('textbox', { name: 'Name' }).fill('Nightly batch');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = (await page.getByTestId('new-api-key').textContent())!;
    const row = page.getByRole('row', { name: /Nightly batch/ });
    await expect(row.getByRole('cell').nth(1)).toHaveText('Run services, Publish your services');
    await expect(row.getByRole('cell').nth(3)).toHaveText('Never');
    // A call with the key is its last use, shown on the next visit.
    expect((await request.get('/v1/model_management/model_descriptors', { headers: { Authorization: `Bearer ${secret}` } })).ok()).toBe(
      true,
    );
    await page.reload();
    const today = await page.evaluate(() => new Date().toLocaleDateString(undefined, { dateStyle: 'medium' }));
    await expect(
      page
        .getByRole('row', { name: /Nightly batch/ })
        .getByRole('cell')
        .nth(3),
    ).toHaveText(today);
    const colours = await page
      .getByRole('button', { name: /^Delete key / })
      .evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
    const create = await page.getByRole('button', { name: 'Create API key' }).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(colours[0]).not.toBe(create);
    expect(colours[0]).not.toBe('rgba(0, 0, 0, 0)');
    // The profile page points to the keys' new page; the dashboard's summary links there too.
    await page.goto('/account/profile');
    await expect(page.getByRole('link', { name: 'a page of their own' })).toHaveAttribute('href', '/account/api-keys');
    await page.goto('/account/dashboard');
    await expect(page.getByRole('link', { name: 'Manage API keys' })).toHaveAttribute('href', '/account/api-keys');
  });

  test('a way back to the catalogue, and the balance on a service page once signed in (one credits format)', async ({ page, request }) => {
    const password = 'lime-balance-1';
    const email = await confirmedAccount(request, 'balance', password);
    await page.goto('/APIs/service/lime-ocr');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('service-balance')).toHaveCount(0);
    await signIn(page, email, password);
    await page.goto('/account/dashboard');
    await page.getByRole('link', { name: 'Browse APIs' }).click();
    await expect(page).toHaveURL(/\/APIs\/Overview/);
    await page.goto('/APIs/service/lime-ocr');
    await expect(page.getByTestId('service-balance')).toHaveText('Your balance: 500 credits · Buy credits');
    await expect(page.getByTestId('service-balance').getByRole('link', { name: 'Buy credits' })).toHaveAttribute(
      'href',
      '/account/billing',
    );
    await page.goto('/account/billing');
    await expect(page.getByTestId('credit-price')).toHaveText('1,000 credits cost €10.00, paid at checkout.');
  });
});
