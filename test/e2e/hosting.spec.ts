import { axeAudit } from './support/axe';
import { expect, test as base, type Page } from '@playwright/test';
import { confirmedAccount, signInOnPage } from './support/accounts';
import { hostingSkipReason, startHostingStack, type HostingStack } from './support/hosting';

// Container hosting as a publisher lives it (docs/publishing.md, "Build, push, deploy, run"),
// in Chromium against the built site with the runner on (CONTAINER_RUNNER=docker, DOCKER_HOST =
// Podman's Docker API on a private socket): the fixture image is built FROM scratch and pushed to
// a loopback registry with a password; the publisher adds that registry's credential in the
// account, creates a container service in the editor and watches it go deploying → running, runs
// it from the Playground (the output comes from the container, with its timings and log), waits
// past the idle timeout until it is scaled to zero, runs again (a cold start shows), deletes it,
// and no container labelled with the service is left in the engine. Other helpers share the
// engine: only this service's containers are looked at.

const skip = hostingSkipReason();
const PASSWORD = 'hosting-password-1';
/** The schema's smallest idle timeout: the journey waits it out once. */
const IDLE_TIMEOUT_S = 10;

const test = base.extend<object, { stack: HostingStack }>({
  // Playwright reads a fixture's dependencies from its first parameter's destructuring pattern,
  // so a fixture with none must write `{}`; the second is Playwright's `use`, named apart from
  // React's for the hooks rule.
  stack: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, provide: (stack: HostingStack) => Promise<void>) => {
      const stack = await startHostingStack();
      await provide(stack);
      await stack.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  // Every page and request of this file goes to the site with the runner on.
  baseURL: async ({ stack }, provide) => provide(stack.site),
});

async function expectAxeClean(page: Page) {
  const axe = await axeAudit(page).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.describe('container hosting on a real runner (issue 22)', () => {
  test.skip(skip !== null, `needs the container engine: ${skip}`);
  test.setTimeout(150_000);

  test('push, add the registry credential, deploy, run, scale to zero, cold start, delete: nothing left', async ({
    page,
    request,
    stack,
  }) => {
    const image = stack.push('greeter:1');
    const owner = await confirmedAccount(request, 'hosting', PASSWORD);
    await signInOnPage(page, owner, PASSWORD);

    // The registry credential: platform "registry" for the loopback host.
    await page.goto('/account/profile');
    const credentials = page.getByRole('region', { name: 'Docker Hub credentials' });
    await credentials.getByRole('textbox', { name: 'Registry (empty for Docker Hub)' }).fill(stack.registry.host);
    await credentials.getByRole('textbox', { name: 'Docker Hub username' }).fill(stack.registry.username);
    await credentials.getByRole('textbox', { name: 'Alias' }).fill('loopback');
    await credentials.getByLabel('Access token').fill(stack.registry.password);
    await credentials.getByRole('button', { name: 'Add token' }).click();
    await expect(credentials.getByRole('listitem')).toContainText(`loopback · ${stack.registry.host} · ${stack.registry.username}`);
    await expectAxeClean(page);

    // The editor: a container service from the pushed image, with no endpoints of its own.
    await page.goto('/APIs/edit/new');
    const name = `Greeter ${Date.now().toString(36)}`;
    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    await page.getByRole('radio', { name: 'Container image' }).check();
    await page.getByRole('textbox', { name: 'Image' }).fill(image);
    await page
      .getByRole('combobox', { name: 'Registry credential' })
      .selectOption({ label: `loopback · ${stack.registry.host} (${stack.registry.username})` });
    const gpu = page.getByRole('combobox', { name: 'GPU' });
    // One line per offer: GPU, VRAM, provider, price per second.
    await expect(gpu.getByRole('option', { name: 'RTX A4000 · 16 GB VRAM · runpod · $0.00016/s' })).toHaveCount(1);
    await gpu.selectOption({ label: 'RTX A4000 · 16 GB VRAM · runpod · $0.00016/s' });
    await page.getByRole('textbox', { name: 'Minimum instances' }).fill('0');
    await page.getByRole('textbox', { name: 'Maximum instances' }).fill('1');
    await page.getByRole('textbox', { name: 'Idle timeout (s)' }).fill(String(IDLE_TIMEOUT_S));
    await page.getByRole('radio', { name: /^Public/ }).check();
    await page.getByRole('button', { name: 'Create service' }).click();
    await expect(page.getByText('Service created.')).toBeVisible();
    const serviceId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

    // deploying (pulling from the registry, starting) → running, told live by the editor.
    const deployment = page.getByTestId('deployment');
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const status = await deployment.getAttribute('data-status').catch(() => null);
          if (status) seen.add(status);
          return status;
        },
        { timeout: 45_000, intervals: [100] },
      )
      .toBe('running');
    expect([...seen]).toContain('deploying');
    await expect(deployment.getByRole('status')).toHaveText('Running · 1 of up to 1 instance');
    await expect(deployment.getByTestId('deployment-timings')).toContainText(/Last cold start\s*\d/);
    // The deployment's log: a labelled region the keyboard can scroll.
    const log = deployment.getByRole('log', { name: `Logs of ${name}` });
    await expect(log).toContainText('fixture listening on 8080');
    await log.focus();
    await expect(log).toBeFocused();
    await expectAxeClean(page);

    // The Playground runs it: the greeting comes from the container (its hostname), with timings.
    await page.goto(`/APIs/service/${serviceId}`);
    const runner = page.locator('[data-lime="service-runner"]');
    await runner.getByRole('textbox', { name: /Name/ }).fill('Ada');
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
    const output = runner.locator('[data-lime="runner-output"]');
    await expect(output.locator('[data-output="text"]')).toHaveText('Hello, Ada.', { timeout: 30_000 });
    await expect(output.locator('[data-output="json"]')).toContainText('"container":');
    await expect(output).toContainText('Runtime: container');
    // What the container wrote while it ran this job.
    await expect(output.getByRole('log', { name: 'Container log of this run' })).toContainText('greeting Ada');
    await expect(output.locator('[data-output="timings"]')).toHaveText(
      /^Queue \d+(\.\d)? m?s · (warm start \(no cold start\)|cold start \d+ ms) · run \d/,
    );
    await expectAxeClean(page);

    // Past the idle timeout the deployment scales to zero (the hosting page tells it live) …
    await page.goto('/account/hosting');
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row.getByRole('cell').nth(1)).toContainText(`Container on `, { timeout: 10_000 });
    await expect(row.getByRole('cell').nth(1)).toContainText('scaled to zero', { timeout: (IDLE_TIMEOUT_S + 20) * 1000 });
    await row.getByText(/Container on .* scaled to zero/).click();
    await expect(row.getByTestId('deployment')).toHaveAttribute('data-status', 'scaled_to_zero');
    await expectAxeClean(page);

    // … and the next run is a cold start, shown with the run.
    await page.goto(`/APIs/service/${serviceId}`);
    await runner.getByRole('textbox', { name: /Name/ }).fill('Grace');
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(output.locator('[data-output="text"]')).toHaveText('Hello, Grace.', { timeout: 30_000 });
    await expect(output.locator('[data-output="timings"]')).toHaveText(/ · cold start \d+ ms · run /);

    // Delete it from the hosting page: no container labelled with the service is left.
    await page.goto('/account/hosting');
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete the service' }).click();
    await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
    await expect.poll(() => stack.containersOf(serviceId), { timeout: 20_000 }).toEqual([]);
  });
});
