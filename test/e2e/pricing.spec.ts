import { axeAudit } from './support/axe';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

// The /Pricing page as a visitor uses it (product-rules §2 Pricing page, §9 Plans and Calculator):
// plan cards, the two blocks, the private GPU cloud section, and the calculator driven by the
// keyboard against the live pricing_servers of the running platform server.

interface PricingServer {
  id: string;
  display_name: string;
  provider: string;
  gpu_vram_gb: number;
  customer_price_per_s_usd: number;
}

/** product-rules §7: keep servers of the two third-party GPU providers; product-rules §9: sorted by price per second. */
function keptAndSorted(servers: PricingServer[]): PricingServer[] {
  return servers
    .filter((s) => /runpod|replicate/i.test(s.provider))
    .sort((a, b) => a.customer_price_per_s_usd - b.customer_price_per_s_usd || a.gpu_vram_gb - b.gpu_vram_gb);
}

/** product-rules §9: requests per hour x 24 x 30 x ms / 1000 x price per second, rounded (whole dollars). */
const monthly = (rph: number, ms: number, price: number) => Math.round(Number((((rph * 24 * 30 * ms) / 1000) * price).toPrecision(12)));
const usd = (n: number) => `$${n.toLocaleString('en-US')}`;

async function openPricing(page: Page, path = '/Pricing') {
  const live = page.waitForResponse((r) => r.url().includes('/v1/model_management/pricing_servers') && r.ok());
  await page.goto(path);
  const servers = keptAndSorted((await (await live).json()) as PricingServer[]);
  const calculator = page.getByRole('region', { name: 'Serverless cost calculator' });
  // product-rules §4: bundled cache first, then the live list replaces it.
  await expect(calculator).toHaveAttribute('data-source', 'live');
  return { servers, calculator };
}

test('pricing page: plan cards, earn and customised-solutions blocks, private GPU cloud; axe clean (product-rules §2, §9)', async ({
  page,
}) => {
  await openPricing(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  const plans = page.getByRole('list', { name: 'Plans' });
  await expect(plans.getByRole('article')).toHaveCount(4);
  await expect(plans.getByRole('article', { name: 'Free' })).toContainText('$0');
  await expect(plans.getByRole('article', { name: 'Plus' })).toContainText('€4.99');
  const pro = plans.getByRole('article', { name: 'Pro' });
  await expect(pro).toContainText('€19.99');
  await expect(pro.locator('s')).toHaveText('$29,99');
  await expect(pro).toContainText('Most Popular');
  await expect(plans.getByRole('article', { name: 'Enterprise' })).toContainText('from€39.99per person per month');

  await expect(page.getByRole('heading', { name: 'Earn with public hosting' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Customised solutions' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Private GPU cloud' })).toBeVisible();
  await expect(page.getByRole('table', { name: /Serverless GPU prices/ })).toBeVisible();

  const results = await axeAudit(page).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
});

test('calculator: change the GPU and both inputs by keyboard and read the monthly cost (product-rules §9)', async ({ page }) => {
  const { servers, calculator } = await openPricing(page);
  const memories = [...new Set(servers.map((s) => s.gpu_vram_gb))].sort((a, b) => a - b);
  expect(memories.length).toBeGreaterThan(1);
  const cheapestWith = (vram: number) => servers.find((s) => s.gpu_vram_gb === vram)!;
  const cost = calculator.getByRole('status', { name: 'Estimated monthly cost' });

  // product-rules §9 defaults: 100 requests per hour, 300 ms, on the smallest GPU memory.
  await expect(calculator.getByRole('textbox', { name: 'Requests per hour' })).toHaveValue('100');
  await expect(calculator.getByRole('textbox', { name: 'Execution time (ms)' })).toHaveValue('300');
  await expect(cost).toContainText(usd(monthly(100, 300, cheapestWith(memories[0]!).customer_price_per_s_usd)));

  // The GPU table is sorted by price per second.
  const perSecond = await calculator
    .getByRole('table')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => Number(r.querySelectorAll('td')[2]!.textContent!.replace(/[^0-9.]/g, ''))));
  expect(perSecond).toEqual([...perSecond].sort((a, b) => a - b));
  // The GPU offers and the CPU tier, the cheapest, first (issue 50, item 3).
  expect(perSecond).toHaveLength(servers.length + 1);

  // Keyboard only: the checked chip, an arrow to the next memory size, then the two fields.
  await calculator.getByRole('radio', { checked: true }).focus();
  await page.keyboard.press('ArrowRight');
  const vram = memories[1]!;
  await expect(calculator.getByRole('radio', { name: new RegExp(`^${vram} GB`) })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(calculator.getByRole('textbox', { name: 'Requests per hour' })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('250');
  await page.keyboard.press('Tab');
  await expect(calculator.getByRole('textbox', { name: 'Execution time (ms)' })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('1200');

  const server = cheapestWith(vram);
  await expect(cost).toContainText(usd(monthly(250, 1200, server.customer_price_per_s_usd)));
  await expect(calculator).toContainText(`on ${server.display_name} (${vram} GB, ${server.provider})`);

  // Invalid input: a field error, never NaN or Infinity.
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('-5');
  const ms = calculator.getByRole('textbox', { name: 'Execution time (ms)' });
  await expect(ms).toHaveAttribute('aria-invalid', 'true');
  await expect(ms).toHaveAccessibleDescription('Must be 0 or more.');
  await expect(cost).toHaveText('Fix the inputs to see an estimate');
  await expect(calculator).not.toContainText(/NaN|Infinity/);

  const results = await axeAudit(page).include('[data-lime="pricing-calculator"]').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
});

test('the footer spelling /pricing serves the same page (product-rules §2)', async ({ page }) => {
  await openPricing(page, '/pricing');
  await expect(page.getByRole('list', { name: 'Plans' }).getByRole('article')).toHaveCount(4);
});

test('signed out, a plan button goes to sign-up with page_state 0 (product-rules §9)', async ({ page }) => {
  await openPricing(page);
  await page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'Choose Pro' }).click();
  await expect(page).toHaveURL(/\/signinup\?page_state=0$/);
});

/** A confirmed, signed-in account: sign up on the site, follow the dev mailbox's confirmation link. */
async function signedIn(page: Page, request: APIRequestContext): Promise<string> {
  const email = `e2e-pricing-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  await page.goto('/signinup?page_state=0');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('pricing-e2e-secret');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`);
        if (!response.ok()) return undefined;
        const messages = (await response.json()) as Array<{ links: string[] }>;
        link = messages.flatMap((m) => m.links).find((l) => /type=signup/.test(l));
        return link;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  await page.goto(link!);
  await expect(page).toHaveURL(/\/account\/dashboard$/);
  return email;
}

test('signed in, a plan button goes to the billing page (product-rules §9)', async ({ page, request }) => {
  await signedIn(page, request);
  await openPricing(page);
  await page.getByRole('article', { name: 'Plus' }).getByRole('button', { name: 'Choose Plus' }).click();
  await expect(page).toHaveURL(/\/account\/billing$/);
});
