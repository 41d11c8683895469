import { axeAudit } from './support/axe';
import { execFileSync } from 'node:child_process';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signInByApi } from './support/accounts';

// Running a service from its page (issue 12), against the running site, the job API and the
// local demo runtimes: sign in, type a prompt, Run, watch the progress, see the output.

const DEMO = { email: 'demo@limelight.dev', password: 'limelight-demo' };
const IMAGE_SERVICE = '/APIs/service/lime-diffusion-xl';
const CHAT_SERVICE = '/APIs/service/lime-chat-8b';

async function signIn(page: Page) {
  await page.goto('/signinup?page_state=1');
  await page.getByLabel('E-mail').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/account/);
}

/** Signed in by the auth API, for the tests after the first, which test running, not signing in. */
const signedIn = (page: Page) => signInByApi(page, DEMO.email, DEMO.password);

/** The demo user's access token, through the auth API as any client gets it. */
async function accessToken(request: APIRequestContext): Promise<string> {
  const config = (await (await request.get('/config.json')).json()) as { authKey: string };
  const response = await request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: config.authKey },
    data: { email: DEMO.email, password: DEMO.password },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * The balance once the demo user's earlier jobs have ended: a job another test started (the
 * user is shared) charges when it ends, which moved the balance by 0.137 credits in the middle
 * of a test once. Waits until no job of the user holds credits (GET /v1/jobs/holds).
 */
async function settledBalance(request: APIRequestContext, token: string): Promise<number> {
  await expect
    .poll(
      async () =>
        ((await (await request.get('/v1/jobs/holds', { headers: { Authorization: `Bearer ${token}` } })).json()) as { reserved: number })
          .reserved,
      {
        timeout: 60_000,
      },
    )
    .toBe(0);
  return balance(request, token);
}

async function balance(request: APIRequestContext, token: string): Promise<number> {
  const response = await request.get('/v1/payment/balance', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { balance: number }).balance;
}

const runner = (page: Page) => page.locator('[data-lime="service-runner"]');
const liveStatus = (page: Page) => page.locator('[data-lime="runner-status"] [role="status"]');

test.describe('run a service (issue 12)', () => {
  test('sign in, prompt, Run: progress, then the image, labelled as a demo', async ({ page }) => {
    await signIn(page);
    await page.goto(IMAGE_SERVICE);
    await expect(page.getByRole('tab', { name: 'Playground', selected: true })).toBeVisible();
    await page.getByRole('textbox', { name: /Prompt/ }).fill('a ripe lime on a wooden desk');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('progressbar', { name: 'Progress' })).toBeVisible();
    const image = page.getByRole('img', { name: 'Generated image' });
    await expect(image).toBeVisible({ timeout: 30_000 });
    // The image really loaded (decoded with a size), not just an element with a src.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(liveStatus(page)).toHaveText('Finished');
    await expect(page.getByText(/Demo output from the local-demo runtime/)).toBeVisible();
    // The run is listed among the recent runs.
    await expect(page.getByRole('region', { name: 'Your recent runs' }).getByRole('listitem').first()).toContainText(
      'a ripe lime on a wooden desk',
    );
    const results = await axeAudit(page).include('[data-lime="service-runner"]').analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
    // The account dashboard lists it among the latest runs, linking back to the service.
    await page.goto('/account/dashboard');
    const latest = page.getByTestId('recent-runs').getByRole('row').nth(1);
    await expect(latest).toContainText('lime-diffusion-xl /generate');
    await expect(latest).toContainText('Finished');
    await latest.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`${IMAGE_SERVICE}$`));
  });

  test('a chat service streams text as it arrives', async ({ page }) => {
    await signedIn(page);
    await page.goto(CHAT_SERVICE);
    await page.getByRole('textbox', { name: 'Message 1' }).fill('Tell me about limes.');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const streaming = page.locator('[data-streaming="true"]');
    await expect(streaming).toBeVisible({ timeout: 20_000 });
    const first = (await streaming.textContent()) ?? '';
    // More text arrives while the job is still running, then the final answer replaces it.
    await expect
      .poll(async () => ((await page.locator('[data-output="text"]').first().textContent()) ?? '').length)
      .toBeGreaterThan(first.length);
    await expect(liveStatus(page)).toHaveText('Finished', { timeout: 30_000 });
    await expect(page.locator('[data-output="text"]')).not.toBeEmpty();
  });

  test('Cancel ends a running job as CANCELLED', async ({ page, request }) => {
    await signedIn(page);
    await page.goto(IMAGE_SERVICE);
    await page.getByRole('textbox', { name: /Prompt/ }).fill('a lime to cancel');
    // Many steps make the demo run long enough to cancel.
    await page.getByRole('spinbutton', { name: 'Num inference steps' }).fill('150');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(liveStatus(page)).toHaveText('Cancelled', { timeout: 20_000 });
    const token = await accessToken(request);
    const list = await request.get('/v1/jobs?service_id=lime-diffusion-xl&limit=1', { headers: { Authorization: `Bearer ${token}` } });
    expect(((await list.json()) as { jobs: { status: string }[] }).jobs[0]!.status).toBe('CANCELLED');
  });

  test('an anonymous Run opens sign-in, then runs', async ({ page }) => {
    await page.goto(IMAGE_SERVICE);
    await page.getByRole('textbox', { name: /Prompt/ }).fill('a lime for a visitor');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('E-mail').fill(DEMO.email);
    await dialog.getByLabel('Password', { exact: true }).fill(DEMO.password);
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(dialog).toBeHidden();
    // Still on the service page; the run started by itself with the typed prompt.
    await expect(page).toHaveURL(new RegExp(`${IMAGE_SERVICE}$`));
    await expect(page.getByRole('img', { name: 'Generated image' })).toBeVisible({ timeout: 30_000 });
  });

  test('a missing required field is marked and nothing is charged', async ({ page, request }) => {
    const token = await accessToken(request);
    const before = await settledBalance(request, token);
    await signedIn(page);
    await page.goto(IMAGE_SERVICE);
    // The form opens on the example's prompt: back to the defaults, the prompt is empty.
    await page.getByRole('button', { name: 'Reset to defaults' }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const prompt = page.getByRole('textbox', { name: /Prompt/ });
    await expect(prompt).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('prompt is required')).toBeVisible();
    await expect(liveStatus(page)).toHaveText('Please correct the marked fields.');
    expect(await balance(request, token)).toBe(before);
  });

  test("the API tab's cURL with a new API key runs the job", async ({ page }) => {
    await signedIn(page);
    await page.goto(IMAGE_SERVICE);
    await page.getByRole('tab', { name: 'API' }).click();
    await expect(page).toHaveURL(/\?tab=api$/);
    await page.getByRole('button', { name: 'Create an API key for these samples' }).click();
    await expect(page.getByText(/New key created/)).toBeVisible();
    const curl = await page.locator('[role="tabpanel"]:not([hidden]) pre').first().textContent();
    expect(curl).toContain('Bearer lime_');
    // Run exactly what the page shows, with the system's curl.
    const output = execFileSync('bash', ['-c', curl!], { encoding: 'utf8', timeout: 90_000 });
    const job = JSON.parse(output) as { status: string; service_id: string; result: unknown };
    expect(job.service_id).toBe('lime-diffusion-xl');
    expect(job.status).toBe('FINISHED');
    expect(job.result).toBeTruthy();
  });

  test('the tabs follow the ARIA tabs pattern by keyboard', async ({ page }) => {
    await page.goto(IMAGE_SERVICE);
    const playground = page.getByRole('tab', { name: 'Playground' });
    await playground.focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'API', selected: true })).toBeFocused();
    await page.keyboard.press('End');
    await expect(page.getByRole('tab', { name: 'Docs', selected: true })).toBeFocused();
    await expect(page.getByRole('tabpanel', { name: 'Docs' }).getByRole('table')).toBeVisible();
    await page.keyboard.press('Home');
    await expect(playground).toBeFocused();
    await expect(runner(page)).toBeVisible();
  });
});
