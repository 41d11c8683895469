import { axeAudit } from './support/axe';
import { expect, test } from '@playwright/test';

// The site shell as a visitor meets it: header, menus, footer, home sections, 404 countdown.

test('home page: header, hero, footer with the current year; no axe violations (product-rules §1, §2)', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Limelight home' })).toBeVisible();
  const main = page.getByRole('navigation', { name: 'Main' });
  await expect(main.getByRole('link', { name: 'APIs' })).toHaveAttribute('href', '/APIs/Overview');
  await expect(main.getByRole('link', { name: 'Hosting' })).toHaveAttribute('href', '/Hosting');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('serverless GPU cloud');
  await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear()} Limelight`);
  for (const column of ['Products', 'Company', 'Terms & Policies']) {
    await expect(page.getByRole('navigation', { name: column })).toBeVisible();
  }
  const results = await axeAudit(page).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
});

test('Company submenu opens by keyboard, closes on Escape, and links to About us and Carreers (product-rules §2)', async ({ page }) => {
  await page.goto('/');
  const toggle = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Company' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('link', { name: 'Carreers' })).toHaveAttribute('href', '/careers');
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();
  await toggle.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About us', exact: true }).click();
  await expect(page).toHaveURL(/\/Company$/);
  await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
});

test('hero card "Deploy & Host" expands and scrolls to the hosting showcase (product-rules §2)', async ({ page }) => {
  await page.goto('/');
  const disclosure = page.getByRole('button', { name: 'Hosting Showcase' });
  await expect(disclosure).toHaveAttribute('aria-expanded', 'false');
  await page.getByRole('button', { name: /Deploy & Host/ }).click();
  await expect(disclosure).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByText("IT'S FREE")).toBeVisible();
  await expect(page.getByRole('link', { name: 'Learn more' })).toHaveAttribute('href', '/hosting');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
});

test('mobile: the menu toggle opens a 250 px drawer titled Menu that closes after a link is chosen (product-rules §2)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  expect((await drawer.boundingBox())!.width).toBe(250);
  // The Docs group points at the docs on the site (issue 50), as the desktop menu does.
  await expect(drawer.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/docs/api');
  await expect(drawer.getByRole('link', { name: /github/i })).toHaveCount(0);
  await drawer.getByRole('link', { name: 'Pricing' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/Pricing$/);
});

test('an unknown path goes to /404, counts down from 6 and lands home (product-rules §2, §9)', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByTestId('countdown')).toHaveText('6');
  await expect(page.getByTestId('countdown')).toHaveText('5', { timeout: 2500 });
  await expect(page).toHaveURL(/\/$/, { timeout: 8000 });
});

test('the star counter keeps its defaults when the counter cannot be reached (product-rules §7)', async ({ page }) => {
  await page.route('https://api.github.com/**', (route) => route.abort());
  await page.goto('/');
  await expect(page.getByTestId('repo-stars')).toHaveText('253');
  await expect(page.getByTestId('repo-forks')).toHaveText('34');
});

test('newsletter: preselects the options named in subscribe_to and thanks the subscriber (product-rules §2, §5)', async ({ page }) => {
  await page.goto('/Subscribe?email=reader%40example.com&subscribe_to=2,999,x');
  const checked = page.getByRole('checkbox', { checked: true });
  await expect(checked).toHaveCount(1);
  await expect(page.getByRole('textbox', { name: 'E-mail' })).toHaveValue('reader@example.com');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you for subscribing!' })).toBeVisible();
});
