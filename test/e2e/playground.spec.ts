import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

// The playground as a new user meets it (issue 25): the layout at desktop and phone widths, the
// outputs by type, the forms, and every seeded service runnable. Runs against the built site and
// the local demo runtimes.

const DEMO = { email: 'demo@limelight.dev', password: 'limelight-demo' };
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

async function signIn(page: Page) {
  await page.goto('/signinup?page_state=1');
  await page.getByLabel('E-mail').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/account/);
}

const runner = (page: Page) => page.locator('[data-lime="service-runner"]');
const liveStatus = (page: Page) => page.locator('[data-lime="runner-status"] [role="status"]');
const runButton = (page: Page) => page.getByRole('button', { name: 'Run', exact: true });

async function run(page: Page) {
  await runButton(page).click();
  await expect(liveStatus(page)).toHaveText('Finished', { timeout: 45_000 });
}

/** Width the document scrolls to beyond the viewport (0 when nothing sticks out). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('playground layout (issue 25, item 1)', () => {
  test('desktop: inputs left, output right, Run in the first viewport; the last run is the example', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page);
    await page.goto('/APIs/service/lime-diffusion-xl');
    const form = runner(page).getByRole('form');
    const pane = page.locator('[data-lime="runner-output-pane"]');
    await expect(pane).toBeVisible();
    const formBox = (await form.boundingBox())!;
    const paneBox = (await pane.boundingBox())!;
    expect(paneBox.x).toBeGreaterThanOrEqual(formBox.x + formBox.width);
    expect(Math.abs(paneBox.y - formBox.y)).toBeLessThan(60);
    // Run is on screen without scrolling, though the form is taller than the window.
    expect(formBox.y + formBox.height).toBeGreaterThan(DESKTOP.height);
    await expect(runButton(page)).toBeInViewport();
    await expect(page.evaluate(() => window.scrollY)).resolves.toBe(0);

    await page.getByRole('textbox', { name: /Prompt/ }).fill('a lime beside the form');
    await run(page);
    // The output column stays in view while the form scrolls.
    await page.mouse.wheel(0, 500);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await expect(page.getByRole('img', { name: 'Generated image' })).toBeInViewport();
    await expect(runButton(page)).toBeInViewport();
    expect(await axeViolations(page)).toEqual([]);

    // On the next visit, before any run, the last run shows where the output will be.
    await page.reload();
    const example = page.getByRole('region', { name: 'Your last run' });
    await expect(example).toBeVisible();
    await expect(example).toContainText('a lime beside the form');
    await expect(example.getByRole('img', { name: 'Generated image' })).toBeVisible();
  });

  test('desktop, signed out: the endpoint example or a placeholder stands where the output comes', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/APIs/service/lime-chat-8b');
    const example = page.getByRole('region', { name: 'Example output' });
    await expect(example).toBeVisible();
    await expect(example.locator('[data-output="text"]')).not.toBeEmpty();
    await page.goto('/APIs/service/lime-diffusion-xl');
    await expect(page.getByText('The output appears here when you run the service.')).toBeVisible();
    await expect(runButton(page)).toBeInViewport();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('phone: one column, output under the form, nothing sideways', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/APIs/service/lime-diffusion-xl');
    const form = runner(page).getByRole('form');
    const pane = page.locator('[data-lime="runner-output-pane"]');
    await expect(pane).toBeVisible();
    const formBox = (await form.boundingBox())!;
    const paneBox = (await pane.boundingBox())!;
    expect(paneBox.y).toBeGreaterThanOrEqual(formBox.y + formBox.height);
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });
});
