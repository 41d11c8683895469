import { expect, test, type Page } from '@playwright/test';

// Issue 25, item 10: a page opened by URL or by a link starts at the top; back and forward
// return to where the reader was (reference-app/src/layout/scrollPolicy.ts).

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

async function scrollDown(page: Page, y: number) {
  await page.evaluate((top) => window.scrollTo(0, top), y);
  await expect.poll(() => scrollY(page)).toBeGreaterThan(y - 50);
}

test('a URL opened after scrolling another page starts at the top', async ({ page }) => {
  await page.goto('/Pricing');
  await expect(page.locator('main h1').first()).toBeVisible();
  await scrollDown(page, 1200);
  await page.goto('/Hosting');
  await expect(page.locator('main h1').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await scrollY(page)).toBe(0);
});

test('a link starts the next page at the top; back restores the position', async ({ page }) => {
  await page.goto('/Pricing');
  await expect(page.locator('main h1').first()).toBeVisible();
  await scrollDown(page, 1200);
  const link = page.locator('footer a[href="/Hosting"], footer a[href="/hosting"]').first();
  await link.scrollIntoViewIfNeeded();
  const before = await scrollY(page);
  expect(before).toBeGreaterThan(0);
  await link.click();
  await expect(page).toHaveURL(/\/hosting$/i);
  await expect.poll(() => scrollY(page)).toBe(0);
  await page.goBack();
  await expect(page).toHaveURL(/\/pricing$/i);
  await expect.poll(() => scrollY(page)).toBe(before);
});
