import { axeAudit } from './support/axe';
import { expect, test, type Page } from '@playwright/test';
import { confirmedAccount, signInByApi } from './support/accounts';

// Billing like a customer portal (issue 25, item 8; docs/payments.md): a confirmation after paying
// on the sandbox checkout, receipts listed with a view and a download, a plan change Plus -> Pro,
// and "Cancel at period end" that asks first and then states the end date. Axe at 1280 and 390 px.

async function expectAxeCleanAtBothWidths(page: Page) {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    const results = await axeAudit(page).analyze();
    expect(results.violations.map((v) => `${viewport.width}px ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const subscriptionPanel = (page: Page) => page.getByRole('region', { name: 'Subscription', exact: true });

test.describe('billing (issue 25, item 8)', () => {
  test('after a sandbox payment the page confirms it with the new balance, and the receipt is listed, viewable and downloadable', async ({
    page,
    request,
  }) => {
    const email = await confirmedAccount(request, 'billing-credits', 'billing-pw-1');
    await signInByApi(page, email, 'billing-pw-1');
    await page.goto('/account/billing');
    await expect(page.getByRole('region', { name: 'Receipts' }).getByText('No payments yet.')).toBeVisible();

    await page.getByLabel('Credits to buy').fill('1000');
    await page.getByRole('button', { name: 'Buy credits' }).click();
    await expect(page.getByRole('heading', { name: 'Sandbox checkout' })).toBeVisible();
    await page.getByRole('button', { name: 'Pay' }).click();

    await expect(page).toHaveURL(/\/account\/billing\?checkout=success&checkout_id=cs_sandbox_/);
    const confirmation = page.getByTestId('checkout-confirmation');
    await expect(confirmation.getByRole('heading', { name: 'Payment received' })).toBeVisible();
    await expect(confirmation).toContainText('You bought 1,000 credits for €10.00. Your balance is now 1,500 credits.');
    await expect(page.getByTestId('credit-balance')).toHaveText('1,500');

    const receipts = page.getByTestId('receipts');
    const row = receipts.getByRole('row', { name: /1000 credits/ });
    await expect(row).toContainText('€10.00');
    await expect(row).toContainText('Paid');
    await expectAxeCleanAtBothWidths(page);

    await row.getByRole('button', { name: /^View receipt cs_sandbox_/ }).click();
    const view = page.getByTestId('receipt-view');
    await expect(view).toContainText('1000 credits');
    const downloadStarted = page.waitForEvent('download');
    await view.getByRole('link', { name: /^Download receipt/ }).click();
    const download = await downloadStarted;
    expect(download.suggestedFilename()).toMatch(/^receipt-cs_sandbox_[\w-]+\.html$/);
    await expectAxeCleanAtBothWidths(page);

    await confirmation.getByRole('button', { name: 'Dismiss' }).click();
    await expect(confirmation).toBeHidden();
    await expect(page).toHaveURL(/\/account\/billing$/);
  });

  test('subscribe to Plus, switch to Pro (charged, a receipt), then cancel at period end: it asks first and then shows the end date', async ({
    page,
    request,
  }) => {
    const email = await confirmedAccount(request, 'billing-plan', 'billing-pw-2');
    await signInByApi(page, email, 'billing-pw-2');
    await page.goto('/account/billing');
    const panel = subscriptionPanel(page);
    await panel.getByLabel('Plan to subscribe to').selectOption('plus');
    await panel.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByText('plus plan (monthly)')).toBeVisible();
    await page.getByRole('button', { name: 'Pay' }).click();

    const confirmation = page.getByTestId('checkout-confirmation');
    await expect(confirmation).toContainText(/You are now on the Plus plan \(€4\.99 per month\)\. It renews on /);
    const status = panel.getByTestId('subscription-status');
    await expect(status).toContainText('Plus');
    await expect(status).toContainText('Active');

    await panel.getByRole('button', { name: 'Switch to Pro' }).click();
    await expect(panel.getByRole('group')).toContainText('The price difference for the rest of this period is charged now.');
    await panel.getByRole('group').getByRole('button', { name: 'Switch to Pro' }).click();
    await expect(status).toContainText('Pro');
    await expect(page.getByTestId('receipts').getByRole('row', { name: /Change to the Pro plan/ })).toContainText('Paid');

    await panel.getByRole('button', { name: 'Cancel at period end' }).click();
    const question = panel.getByRole('group');
    await expect(question).toContainText(/Cancel your subscription at the end of the period\? It stays active until .+, then ends\./);
    // Nothing changed yet: the status is still active until confirmed.
    await expect(status).toContainText('Active');
    await expectAxeCleanAtBothWidths(page);
    await question.getByRole('button', { name: 'Keep my plan' }).click();
    await expect(status).toContainText('Active');

    await panel.getByRole('button', { name: 'Cancel at period end' }).click();
    await panel.getByRole('group').getByRole('button', { name: 'Cancel at period end' }).click();
    await expect(status).toContainText(/Ends on .*\d{4}/);
    await expect(status).not.toContainText('Active');
    await expect(panel.getByRole('button', { name: 'Reactivate' })).toBeVisible();
    await expect(panel.getByRole('button', { name: /Switch to/ })).toHaveCount(0);
    await expectAxeCleanAtBothWidths(page);
  });
});

test('the hosting page shows what the publisher’s public services earned, in line with their run counts (issue 25, item 8)', async ({
  page,
}) => {
  await signInByApi(page, 'publisher@limelight.dev', 'limelight-publisher');
  await page.goto('/account/hosting');
  const row = page.getByRole('row', { name: /sketch-to-render/ });
  await expect(row).toContainText('12,345');
  // 12,345 runs x 0.004 USD x 92 credits per USD x the publisher's 30 % share.
  await expect(row).toContainText('1,362.888 credits');
  await expect(row).not.toContainText(/(^|\D)0 credits/);
});

test('months read as the locale’s month and year on the dashboard and in the usage charts, which use a time axis (issue 25, items 8 and 10)', async ({
  page,
}) => {
  await signInByApi(page, 'demo@limelight.dev', 'limelight-demo');
  await page.goto('/account/dashboard');
  await expect(page.getByTestId('calls-this-month')).toHaveText(/^\d[\d,]*$/);
  // The count's note names the month and says what is counted (issue 50, item 7).
  await expect(page.getByTestId('calls-note')).toHaveText(/^In [A-Z][a-z]+ \d{4}: every request made with one of your API keys/);
  const chart = page.locator('[data-lime="series-chart"]').first();
  await expect(chart.locator('svg text').first()).toBeVisible();
  const labels = await chart.locator('svg text').allTextContents();
  expect(labels.filter((l) => /^\d{4}-\d{2}$/.test(l))).toEqual([]);
  expect(labels.some((l) => /^[A-Z][a-z]{2} \d{4}$/.test(l))).toBe(true);
  await page.goto('/account/billing');
  const balance = page.locator('[data-lime="series-chart"]').first();
  await expect(balance.locator('svg text').first()).toBeVisible();
  expect((await balance.locator('svg text').allTextContents()).filter((l) => /^\d{4}-\d{2}$/.test(l))).toEqual([]);
});
