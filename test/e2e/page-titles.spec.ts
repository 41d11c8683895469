import { expect, test } from '@playwright/test';
import { signInByApi } from './support/accounts';

// Each page names itself in the browser tab (issue 39, item 3): a visitor with five tabs open, a
// bookmark or the history list tells the pages apart. The title follows client-side navigation too.

const PUBLIC_TITLES: Array<[string, string | RegExp]> = [
  ['/', 'Limelight · Serverless GPU cloud for AI model APIs'],
  ['/APIs/Overview', /^.+ · Limelight$/],
  ['/APIs/service/black-forest-labs/flux-schnell', /flux-schnell · Limelight$/i],
  ['/Pricing', 'Pricing · Limelight'],
  ['/Hosting', 'Hosting · Limelight'],
  ['/Company', 'About us · Limelight'],
  ['/terms_of_service', 'Terms of Service · Limelight'],
  ['/privacy_policy', 'Privacy Policy · Limelight'],
  ['/signinup', 'Sign in · Limelight'],
];

const ACCOUNT_TITLES: Array<[string, string]> = [
  ['/account/dashboard', 'Dashboard · Limelight'],
  ['/account/profile', 'Profile · Limelight'],
  ['/account/billing', 'Billing · Limelight'],
  ['/account/hosting', 'Hosted services · Limelight'],
  ['/account/support', 'Support · Limelight'],
];

test('every public route has its own title, also after client-side navigation', async ({ page }) => {
  const seen = new Set<string>();
  for (const [route, title] of PUBLIC_TITLES) {
    await page.goto(route);
    await expect(page).toHaveTitle(title);
    seen.add(await page.title());
  }
  expect(seen.size, [...seen].join('\n')).toBe(PUBLIC_TITLES.length);

  // From a service page (whose title the page sets) to a page named by its route, in the app.
  await page.goto('/APIs/service/black-forest-labs/flux-schnell');
  await expect(page).toHaveTitle(/flux-schnell · Limelight$/i);
  await page.getByRole('navigation', { name: 'Products' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveTitle('Pricing · Limelight');
  await page.getByRole('link', { name: 'Limelight home' }).first().click();
  await expect(page).toHaveTitle('Limelight · Serverless GPU cloud for AI model APIs');
});

test('every account page has its own title', async ({ page }) => {
  await signInByApi(page, 'demo@limelight.dev', 'limelight-demo');
  for (const [route, title] of ACCOUNT_TITLES) {
    await page.goto(route);
    await expect(page).toHaveTitle(title);
  }
});
