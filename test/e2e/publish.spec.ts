import { axeAudit } from './support/axe';
import { expect, test, type Page } from '@playwright/test';
import { SKETCH_PNG, startSketchService, type SketchService } from '../fixtures/sketchService';
import { confirmedAccount, signInByApi } from './support/accounts';

// Publishing a service (docs/publishing.md) against the running site, with a small HTTP service
// started here as the developer's own API: New service → import its OpenAPI document → public →
// create → found by the header search → run in the Playground. Then editing, ownership, the
// plan limit on private services, and the hosting page's pause and delete.

const PASSWORD = 'publisher-password-1';
const headerSearch = (page: Page) => page.getByRole('banner').getByRole('combobox', { name: 'Search services' });

// Signed in by the auth API: these journeys test publishing, not the sign-in page (auth.spec.ts).
const signIn = (page: Page, email: string) => signInByApi(page, email, PASSWORD);

test.describe.serial('publish a service (issue 13)', () => {
  let sketch: SketchService;
  let owner: string;
  let serviceId: string;
  const name = `Sketchbook ${Date.now().toString(36)}`;

  test.beforeAll(async ({ request }) => {
    sketch = await startSketchService();
    owner = await confirmedAccount(request, 'publisher', PASSWORD);
  });
  test.afterAll(async () => {
    await sketch?.close();
  });

  test('New service: import the OpenAPI document, make it public, create; search finds it and the Playground runs it', async ({ page }) => {
    await signIn(page, owner);
    await page.goto('/account/hosting');
    await expect(page.getByText('You publish no services yet.')).toBeVisible();
    await page.getByRole('link', { name: 'New service' }).click();
    await expect(page).toHaveURL(/\/APIs\/edit\/new$/);
    await expect(page.getByRole('heading', { level: 1, name: 'New service' })).toBeVisible();

    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    await page.getByRole('textbox', { name: 'Base URL' }).fill(sketch.url);
    // Empty document URL: the import reads the one beside the base URL.
    await page.getByRole('button', { name: 'Import endpoints' }).click();
    await expect(page.getByText('Imported 3 endpoints; review them below and save to keep them.')).toBeVisible();
    const endpoints = page.getByTestId('endpoint');
    await expect(endpoints).toHaveCount(3);
    const generate = page.getByRole('group', { name: 'Endpoint POST /generate' });
    await expect(generate).toBeVisible();
    await expect(generate.getByRole('group', { name: 'Parameter style' }).getByRole('textbox', { name: 'Allowed values' })).toHaveValue(
      'pencil, ink, charcoal',
    );
    // What the import could not express is listed, not dropped.
    await expect(page.getByText('Not imported (4):')).toBeVisible();
    // The live preview follows the form.
    await expect(page.getByTestId('card-preview')).toContainText(name);

    await page.getByRole('radio', { name: /^Public/ }).check();
    const axe = await axeAudit(page).include('main').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

    await page.getByRole('button', { name: 'Create service' }).click();
    await expect(page.getByText('Service created.')).toBeVisible();
    await expect(page).toHaveURL(/\/APIs\/edit\/(?!new)[a-z0-9-]+$/);
    serviceId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await expect(page.getByRole('heading', { level: 1, name: `Edit ${name}` })).toBeVisible();
    await page.getByRole('button', { name: 'Check health' }).click();
    await expect(page.getByTestId('health')).toContainText(/Healthy · \d+ ms/);
    // The health path left empty: the check asks the OpenAPI document, not GET / (issue 39).
    await expect(page.getByTestId('health')).toContainText('GET /openapi.json answered 200');

    // Found at once by the header search, without a reload or a server restart.
    await headerSearch(page).fill(name);
    await page
      .getByRole('option', { name: new RegExp(name) })
      .first()
      .click();
    await expect(page).toHaveURL(/\/APIs\/service\//);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    await page.getByRole('textbox', { name: /prompt/i }).fill('a lime in pencil');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const image = page.locator('[data-lime="runner-output"] img');
    await expect(image).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
    // The fixture received what the Playground sent.
    const call = sketch.received.find((r) => r.path === '/generate');
    expect(JSON.parse(call!.body.toString())).toMatchObject({ prompt: 'a lime in pencil' });
    // The hosting list says what the editor's check said.
    await page.goto('/account/hosting');
    await expect(
      page
        .getByRole('row', { name: new RegExp(name) })
        .getByRole('cell')
        .nth(1),
    ).toHaveText('Own URL · healthy');
  });

  test('editing the description updates the service page; leaving with unsaved changes asks first', async ({ page }) => {
    await signIn(page, owner);
    await page.goto(`/APIs/edit/${serviceId}`);
    const description = page.getByRole('textbox', { name: 'Description' }).first();
    await description.fill('<p>Pencil sketches from a prompt.</p><script>alert(1)</script>');
    await expect(page.getByTestId('page-preview')).toContainText('Pencil sketches from a prompt.');

    await page.getByRole('link', { name: '← Your services' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Stay and keep editing' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/APIs/edit/${serviceId}$`));

    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    // A saved service's image uploads at once and comes back cropped to the card (660 × 372).
    await page.getByLabel('Upload an image').setInputFiles({ name: 'sketch.png', mimeType: 'image/png', buffer: SKETCH_PNG });
    const thumbnail = page.getByRole('img', { name: `Current image of ${name}` });
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => `${img.naturalWidth}×${img.naturalHeight}`)).toBe('660×372');
    // The saved text comes back sanitised: the script is gone from the form too.
    await expect(description).toHaveValue('<p>Pencil sketches from a prompt.</p>');
    await page.getByRole('link', { name: 'Open the service page' }).click();
    await expect(page).toHaveURL(/\/APIs\/service\//);
    await expect(page.locator('article').getByText('Pencil sketches from a prompt.')).toBeVisible();
    // Sanitised on the server: the script never reaches the page.
    expect(await page.locator('article script').count()).toBe(0);
  });

  test('a Free user who makes the service private gets the plan message with a link to billing', async ({ page }) => {
    await signIn(page, owner);
    await page.goto(`/APIs/edit/${serviceId}`);
    // A field the server refuses is marked on the field itself, with the server's reason.
    const baseUrl = page.getByRole('textbox', { name: 'Base URL' });
    await baseUrl.fill('not a url');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('alert')).toContainText('Some fields need attention');
    await expect(baseUrl).toHaveAttribute('aria-invalid', 'true');
    await expect(baseUrl).toHaveAccessibleDescription(/must be a URL/);
    // The first invalid field takes the focus (issue 39), here far below the Save button's message.
    await expect(baseUrl).toBeFocused();
    await baseUrl.fill(sketch.url);

    await page.getByRole('radio', { name: /^Private/ }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(
      'Your free plan allows no private services (you have 0). Make the service public, or upgrade your plan',
    );
    await expect(alert.getByRole('link', { name: 'Upgrade your plan' })).toHaveAttribute('href', '/account/billing');
  });

  test('a container deployment: GPU, instances, the calculator’s monthly estimate, then waiting for a runner', async ({
    page,
    request,
  }) => {
    await signIn(page, owner);
    await page.goto('/APIs/edit/new');
    await page.getByRole('textbox', { name: 'Name' }).fill(`${name} GPU`);
    await page.getByRole('radio', { name: 'Container image' }).check();
    await page.getByRole('textbox', { name: 'Image' }).fill('docker.io/me/sketch:1.0');
    const gpus = (await (await request.get('/v1/model_management/pricing_servers')).json()) as Array<{
      id: string;
      display_name: string;
      customer_price_per_s_usd: number;
    }>;
    const gpu = gpus[0]!;
    await page.getByRole('combobox', { name: 'GPU' }).selectOption(gpu.id);
    await page.getByRole('textbox', { name: 'Requests per hour' }).fill('100');
    await page.getByRole('textbox', { name: 'Execution time (ms)' }).fill('2000');
    // product-rules §9: requests per hour × 24 × 30 × seconds per request × price per second.
    const dollars = Math.round(100 * 24 * 30 * 2 * gpu.customer_price_per_s_usd).toLocaleString('en-US');
    await expect(page.getByTestId('monthly-estimate')).toHaveText(`About $${dollars} a month on ${gpu.display_name}.`);
    await page.getByRole('button', { name: 'Create service' }).click();
    await expect(page.getByText('Service created.')).toBeVisible();
    await page.getByRole('button', { name: 'Check health' }).click();
    await expect(page.getByTestId('health')).toContainText('Waiting for a runner');
    await page.goto('/account/hosting');
    await expect(
      page
        .getByRole('row', { name: new RegExp(`${name} GPU`) })
        .getByRole('cell')
        .nth(1),
    ).toHaveText(`Container on ${gpu.id} · waiting for a runner`);
    await page.getByRole('button', { name: `Delete ${name} GPU` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete the service' }).click();
    await expect(page.getByRole('row', { name: new RegExp(`${name} GPU`) })).toHaveCount(0);
  });

  test('another user cannot open the editor', async ({ page, request }) => {
    const other = await confirmedAccount(request, 'visitor', PASSWORD);
    await signIn(page, other);
    await page.goto(`/APIs/edit/${serviceId}`);
    await expect(page.getByRole('heading', { name: 'You cannot edit this service' })).toBeVisible();
    await expect(page.getByText('Only the owner of this service can edit it.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveCount(0);
  });

  test('the hosting page lists the service with its runs; pause refuses runs, resume, delete after confirming', async ({ page }) => {
    await signIn(page, owner);
    await page.goto('/account/hosting');
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row.getByRole('cell')).toHaveText(['Public', 'Own URL · healthy', 'Active', '1', '0 credits', /Edit/]);
    const axe = await axeAudit(page).include('main').analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);

    await row.getByRole('button', { name: `Pause ${name}` }).click();
    await expect(row.getByRole('cell').nth(2)).toHaveText('Paused');
    await page.goto(`/APIs/service/${serviceId}`);
    await page.getByRole('textbox', { name: /prompt/i }).fill('while paused');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByText(/paused/i).first()).toBeVisible();

    await page.goto('/account/hosting');
    await row.getByRole('button', { name: `Resume ${name}` }).click();
    await expect(row.getByRole('cell').nth(2)).toHaveText('Active');

    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete ${name}?` });
    await expect(confirm.getByRole('button', { name: 'Keep it' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Delete the service' }).click();
    await expect(row).toHaveCount(0);
    await expect(page.getByText('You publish no services yet.')).toBeVisible();
    // A fresh load reads the catalogue from the server: the deleted service is gone from it.
    await page.goto('/APIs/Overview');
    await headerSearch(page).fill(name);
    await expect(page.getByRole('banner').locator('p', { hasText: 'No results' })).toBeVisible();
  });
});
