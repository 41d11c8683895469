import { expect, test, type Page } from '@playwright/test';
import { signInOnPage } from './support/accounts';

// Logout is reachable on a phone (issue 39, item 3): at 390 px the user menu is hidden, so the
// account area offers Logout where it is seen without scrolling anything sideways, and it works
// by pointer and by keyboard.

const PHONE = { width: 390, height: 844 };

async function logoutInView(page: Page) {
  const logout = page.getByRole('button', { name: 'Logout', exact: true });
  await expect(logout).toBeVisible();
  // Inside the viewport as the page first shows it: not scrolled off in the account navigation.
  const box = await logout.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
  expect(box.left).toBeGreaterThanOrEqual(0);
  expect(box.right).toBeLessThanOrEqual(PHONE.width);
  expect(box.top).toBeGreaterThanOrEqual(0);
  expect(box.bottom).toBeLessThanOrEqual(PHONE.height);
  return logout;
}

test('at 390 px a signed-in user sees Logout and signs out with a tap (back home, Login offered)', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInOnPage(page, 'demo@limelight.dev', 'limelight-demo');
  const logout = await logoutInView(page);
  await logout.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
});

test('at 390 px a signed-in user reaches Logout with Tab and signs out with Enter', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInOnPage(page, 'demo@limelight.dev', 'limelight-demo');
  const logout = await logoutInView(page);
  let reached = false;
  for (let i = 0; i < 20 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await logout.evaluate((el) => el === document.activeElement);
  }
  expect(reached, 'Logout reached by Tab').toBe(true);
  await logoutInView(page);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
});
