// Honest demos and prices by hardware (issue 50, items 2 and 3) on the running site: a service on
// the demo runtime wears the Demo badge on its card, in the header search's results and on its
// page, with its reason on hover and focus; its runs say "Demo run: free" beside Run; the
// catalogue's filter hides demos; a CPU model's price names the CPU tier, and so do the pricing
// page's calculator and table. Which service is which comes from the catalogue API (docs/jobs.md,
// metering), never from a list here.
import { expect, test, type Page } from '@playwright/test';
import type { ModelDescriptor } from '../../src/api/types';
import { servicePath } from '../../src/catalogue';
import { confirmedAccount, signInByApi } from './support/accounts';
import { axeAudit } from './support/axe';

let demo: ModelDescriptor;
let cpu: ModelDescriptor;

test.beforeAll(async ({ request }) => {
  const response = await request.get('/v1/model_management/model_descriptors');
  expect(response.ok()).toBe(true);
  const models = (await response.json()) as ModelDescriptor[];
  demo = models.find((m) => m.id === 'lime-diffusion-xl')!;
  cpu = models.find((m) => m.id === 'lime-ocr')!;
  expect(demo).toMatchObject({ demo: true, hardware: 'demo', demo_reason: expect.stringContaining('demo runtime') });
  expect(cpu.hardware).toBe('cpu');
  expect(cpu.demo).toBeUndefined();
});

/** The billing page's transactions list (its table's caption). */
const transactions = (page: Page) => page.getByRole('table', { name: 'Transactions' });

const cardOf = (page: Page, model: ModelDescriptor) => page.getByRole('link', { name: new RegExp(`^${model.display_name}`) });

test('a demo wears the Demo badge on its card, in search and on its page, and runs free', async ({ page }) => {
  await page.goto(`/APIs/Overview?q=${encodeURIComponent('Lime Diffusion XL')}`);
  const card = cardOf(page, demo).first();
  await expect(card).toBeVisible();
  const cardBadge = card.locator('[data-demo]');
  await expect(cardBadge).toHaveText(/^Demo/);
  await expect(card).toHaveAccessibleDescription(demo.demo_reason!);
  await cardBadge.hover();
  await expect(card.getByRole('tooltip')).toBeVisible();
  await expect(card.getByRole('tooltip')).toHaveText(demo.demo_reason!);

  // The filter panel hides the demos.
  await page.getByRole('checkbox', { name: 'Hide demos' }).check();
  await expect(page).toHaveURL(/demos=hide/);
  await expect(cardOf(page, demo)).toHaveCount(0);

  // The header search's result.
  const box = page.getByRole('banner').getByRole('combobox', { name: 'Search services' });
  await box.fill('Lime Diffusion XL');
  const option = page.getByRole('listbox').getByRole('option').filter({ hasText: demo.display_name! }).first();
  await expect(option.locator('[data-demo]')).toHaveText('Demo');
  await expect(option).toHaveAccessibleDescription(demo.demo_reason!);
  await box.press('Escape');

  // The page header: a badge reached by keyboard, described by its reason.
  await page.goto(`/APIs/service/${servicePath(demo)}`);
  const badge = page.getByRole('main').getByRole('button', { name: 'Demo', exact: true });
  await expect(badge).toBeVisible();
  await badge.focus();
  await expect(page.getByRole('tooltip')).toBeVisible();
  await expect(badge).toHaveAccessibleDescription(demo.demo_reason!);
  // axe with the tooltip shown: its contrast, the button's name and description.
  const audit = await axeAudit(page).analyze();
  expect(audit.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // At 390 px the shown tooltip stays on the screen: the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/APIs/service/${servicePath(demo)}`);
  await badge.focus();
  await expect(page.getByRole('tooltip')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Beside Run: the run is free.
  const actions = page.locator('[data-lime="runner-actions"]');
  await expect(actions.getByRole('button', { name: 'Run' })).toBeVisible();
  await expect(actions.locator('[data-lime="runner-estimate"]')).toHaveText('Demo run: free');
});

test('a CPU model is priced at the CPU tier, which the pricing page lists', async ({ page }) => {
  await page.goto(`/APIs/service/${servicePath(cpu)}`);
  await expect(page.getByRole('main').getByRole('button', { name: 'Demo', exact: true })).toHaveCount(0);
  await expect(page.locator('[data-lime="runner-estimate"]')).toContainText('credits/s on CPU');

  await page.goto('/pricing');
  const calculator = page.locator('[data-lime="pricing-calculator"]');
  // By keyboard, as the chips are radios: from the checked smallest GPU back to the CPU tier.
  await calculator.getByRole('radio', { checked: true }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(calculator.getByRole('radio', { name: /^CPU/ })).toBeChecked();
  await expect(calculator).toContainText('CPU tier, per CPU-second');
  await expect(calculator.getByRole('row', { name: /CPU tier, per CPU-second/ })).toContainText('$0.00002');
});

test('a demo run is free: the balance stays, no transaction is added, and the list says why', async ({ page }) => {
  const password = 'honest-demos-1';
  const email = await confirmedAccount(page.request, 'honest-demos', password);
  await signInByApi(page, email, password);
  await page.goto('/account/billing');
  await expect(page.locator('[data-lime="transactions-note"]')).toHaveText(
    'A run is listed with the CPU seconds or GPU seconds it was billed for. Runs of demo services are free and add no transaction.',
  );
  const before = await transactions(page).textContent();

  await page.goto(`/APIs/service/${servicePath(demo)}`);
  await page
    .getByRole('textbox', { name: /prompt/i })
    .first()
    .fill('a lime on a desk');
  await page.locator('[data-lime="runner-actions"]').getByRole('button', { name: 'Run' }).click();
  await expect(page.locator('[data-lime="runner-status"] [role="status"]')).toHaveText('Finished', { timeout: 30_000 });

  await page.goto('/account/billing');
  await expect(transactions(page)).toHaveText(before!);
  await expect(transactions(page)).not.toContainText(demo.id);
});
