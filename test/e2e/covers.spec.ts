import { expect, test, type Page } from '@playwright/test';

// Covers and the site's own origin (issue 50, item 1; docs/security.md, "Covers"): on the home
// page, the catalogue, a service page and the header search, the visitor's browser requests no
// host but the site's own, images included (before, seeded covers sent it to replicate.delivery
// and placehold.co), and the catalogue's cards show a cover of their own each.

/** Every request the page makes to another origin, of any kind. */
function outsideRequests(page: Page, origin: string): string[] {
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== origin) outside.push(request.url());
  });
  return outside;
}

/** Scrolls to the end so lazy pictures load, then waits for every picture of the page to settle. */
async function loadPictures(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  await page.waitForLoadState('networkidle');
}

test('public pages and the search request nothing but the site itself, covers included', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const outside = outsideRequests(page, origin);

  await page.goto('/');
  await loadPictures(page);

  await page.goto('/APIs/Overview');
  await loadPictures(page);
  // The catalogue's cards: one cover each, every one on the site, none shared.
  const covers = await page
    .locator('main ul a[href^="/APIs/service/"] img')
    .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).src));
  expect(covers.length).toBeGreaterThan(5);
  expect(covers.every((src) => new URL(src).origin === origin)).toBe(true);
  expect(new Set(covers).size).toBe(covers.length);

  // Pages 2 and on hold the seeded covers that pointed at other hosts.
  const pager = page.getByRole('navigation', { name: 'Pages' });
  const pages = Number(/Page 1 of (\d+)/.exec((await pager.textContent())!)![1]);
  for (let n = 2; n <= pages; n++) {
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(pager).toContainText(`Page ${n} of ${pages}`);
    await loadPictures(page);
  }

  await page.goto('/APIs/service/ideogram-ai/ideogram-v2');
  await loadPictures(page);
  const picture = page.locator('article img').first();
  await expect(picture).toHaveAttribute('src', /\/media\/covers\/ideogram-ai%2Fideogram-v2\.svg\?v=/);
  // The designed cover loads (a broken picture has no natural width).
  await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

  await page.goto('/APIs/Overview?q=reflection');
  await loadPictures(page);
  const search = page.getByRole('combobox', { name: /Search services/ });
  await expect(async () => {
    await search.fill('');
    await search.fill('reflection');
    await expect(page.getByRole('listbox').locator('img').first()).toBeAttached({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await loadPictures(page);

  expect(outside).toEqual([]);
});
