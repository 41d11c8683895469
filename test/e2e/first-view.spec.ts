import { axeAudit } from './support/axe';
import { expect, test, type Page } from '@playwright/test';
import { signInByApi } from './support/accounts';

// A visitor's first view (issue 38, item 3; issue 39, item 5): the catalogue and the service
// header show a real example output instead of initials, and the Playground opens on its
// endpoint's example input, with the example's output beside it, labelled as such, and the price
// of a run, signed out; a run after signing in replaces the example with the visitor's own.

const DEMO = { email: 'demo@limelight.dev', password: 'limelight-demo' };
const DESKTOP = { width: 1280, height: 800 };

const exampleOutput = (page: Page) => page.getByRole('region', { name: 'Example output' });
const estimate = (page: Page) => page.locator('[data-lime="runner-estimate"]');
const liveStatus = (page: Page) => page.locator('[data-lime="runner-status"] [role="status"]');

async function axeViolations(page: Page) {
  const results = await axeAudit(page).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** True once an <img> has loaded a picture (a broken one has no natural width). */
const loaded = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

test('the catalogue and the home page show pictures of their own, not initials', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/APIs/Overview');
  // The first page of ten cards: each shows a real model's example or its designed cover
  // (docs/security.md, "Covers"), served by the site.
  const pictures = page.locator('main li img[src*="/media/examples/"], main li img[src*="/media/covers/"]');
  await expect(pictures.first()).toBeVisible();
  expect(await pictures.count()).toBeGreaterThanOrEqual(8);
  expect(await loaded(page, 'main li img[src*="/media/"]')).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
  await page.goto('/');
  await expect(page.locator('main img[src*="/media/examples/"], main img[src*="/media/covers/"]').first()).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});

for (const { id, input, output } of [
  { id: 'lime-ocr', input: 'Preview of', output: '[data-output="text"]' },
  { id: 'lime-voice', input: null, output: 'audio[data-output="audio"]' },
  { id: 'lime-cutout', input: 'Preview of product-shot.png', output: 'img[alt="Generated image"]' },
]) {
  test(`${id}, signed out: the example input filled in, its output beside it, the price of a run`, async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`/APIs/service/${id}`);
    // The header's picture is the example output too (outside the Playground).
    await expect(page.locator('main img[src*="/media/examples/"]:not([data-lime="service-runner"] img)').first()).toBeVisible();
    await expect(page.locator('[data-lime="runner-example-input"]')).toContainText('Filled in with the example input');
    if (input) await expect(page.getByRole('img', { name: new RegExp(input) })).toBeVisible();
    else await expect(page.getByRole('textbox', { name: /Text/ })).not.toHaveValue('');
    await expect(exampleOutput(page).locator(output)).toBeVisible();
    // The result is in the first view at 1280×800 (issue 39, item 5).
    await expect(exampleOutput(page)).toBeInViewport();
    await expect(estimate(page)).toContainText(/≈ \d+(\.\d+)? credits a run/);
    await expect(estimate(page)).toContainText(/the example took \d/);
    expect(await axeViolations(page)).toEqual([]);
  });
}

test('lime-cutout: Run as a visitor, sign in, and the real result replaces the example', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/APIs/service/lime-cutout');
  await expect(exampleOutput(page)).toBeVisible();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('E-mail').fill(DEMO.email);
  await dialog.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(dialog).toBeHidden();
  // The run started by itself with the example's input, on the real model.
  await expect(liveStatus(page)).toHaveText('Finished', { timeout: 45_000 });
  await expect(exampleOutput(page)).toHaveCount(0);
  const result = page.locator('[data-lime="runner-output"] img[alt="Generated image"]');
  await expect(result).toBeVisible();
  expect(await result.getAttribute('src')).toContain('/media/files/');
  expect(await loaded(page, '[data-lime="runner-output"] img[alt="Generated image"]')).toBe(true);
  await expect(page.locator('[data-lime="runner-output"]')).toContainText('Runtime: local');
  expect(await axeViolations(page)).toEqual([]);
});

// The Playground's first view by geometry (issue 39, item 5), at 1280×800 without scrolling: the
// example's result shows at least MIN_RESULT_PX of itself, Run is on screen and nothing of the run
// bar lies over the form (a bar stuck to the window's bottom used to cover the field under it),
// and the file input and radios wear the theme, not the browser's grey controls.
const MIN_RESULT_PX = 200;
type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The file input's button colours, which the browser draws grey unless the page themes them. */
const fileButtonColours = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((input) => {
      const button = getComputedStyle(input, '::file-selector-button');
      return { border: button.borderTopColor, background: button.backgroundColor };
    });

test('playground at 1280×800: the result in view, the run bar clear of the form, themed file input', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/APIs/service/lime-cutout');
  const result = exampleOutput(page).locator('img[alt="Generated image"]');
  await expect(result).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const resultBox = (await result.boundingBox())!;
  expect(DESKTOP.height - resultBox.y, 'pixels of the result above the fold').toBeGreaterThanOrEqual(MIN_RESULT_PX);

  const run = page.getByRole('button', { name: 'Run', exact: true });
  const runBox = (await run.boundingBox())!;
  expect(runBox.y + runBox.height).toBeLessThanOrEqual(DESKTOP.height);
  const bar = (await page.locator('[data-lime="runner-actions"]').boundingBox())!;
  const form = page.locator('[data-lime="service-runner"]').getByRole('form');
  for (const control of await form.locator('input, textarea, select, label, [data-lime="runner-example-input"]').all()) {
    const box = await control.boundingBox();
    if (box) expect(overlaps(bar, box), `run bar over ${await control.evaluate((e) => e.outerHTML.slice(0, 80))}`).toBe(false);
  }

  const primary = await run.evaluate((button) => getComputedStyle(button).backgroundColor);
  expect(await fileButtonColours(page, '[data-lime="service-runner"] input[type="file"]')).toMatchObject({ border: primary });
  expect(await axeViolations(page)).toEqual([]);
});

test('service editor: radios and the picture’s file input wear the theme', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signInByApi(page, 'publisher@limelight.dev', 'limelight-publisher');
  await page.goto('/APIs/edit/new');
  const radio = page.getByRole('radio').first();
  await expect(radio).toBeVisible();
  const save = page.getByRole('button', { name: /Save|Create/ }).first();
  const primary = await save.evaluate((button) => getComputedStyle(button).backgroundColor);
  expect(await radio.evaluate((input) => getComputedStyle(input).accentColor)).toBe(primary);
  expect(await fileButtonColours(page, 'input[type="file"]')).toMatchObject({ border: primary });
});
