import { axeAudit } from './support/axe';
import { expect, test, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { confirmedAccount } from './support/accounts';
import { startEmbedServerFor, type EmbedServer } from './support/embed-server';

// Issue 14: the account panels in the reference app (password change, two-factor
// authentication) and as a script-tag element on a third-party page.

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/signinup?page_state=1');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function logout(page: Page, email: string) {
  await page.getByRole('button', { name: `Account menu for ${email}` }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
}

async function expectNoAxeViolations(page: Page) {
  const results = await axeAudit(page).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const panel = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

function totp(secret: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
}

test.describe('account panels in the reference app', () => {
  test('product-rules §5: a wrong current password is refused, the right one changes the password, and the new one signs in', async ({
    page,
    request,
  }) => {
    const email = await confirmedAccount(request, 'password', 'first-pw-1');
    await signIn(page, email, 'first-pw-1');
    await expect(page).toHaveURL(/\/account/);
    await page.goto('/account/profile');
    const form = panel(page, 'Change password');
    await expect(form.getByLabel('Current password')).toBeVisible();

    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByLabel('New password').fill('second-pw-2');
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(form.getByRole('status')).toHaveText('Current password is incorrect');

    await form.getByLabel('Current password').fill('first-pw-1');
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(form.getByRole('status')).toHaveText('Password changed successfully');
    await expect(form.getByLabel('Current password')).toHaveValue('');
    await expectNoAxeViolations(page);

    await logout(page, email);
    await signIn(page, email, 'first-pw-1');
    await expect(page.getByText('Invalid email or password.')).toBeVisible();
    await signIn(page, email, 'second-pw-2');
    await expect(page).toHaveURL(/\/account/);
    await expect(page.getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();
  });

  test('enrol an authenticator app with a code generated here, then remove it', async ({ page, request }) => {
    const email = await confirmedAccount(request, 'mfa', 'mfa-pw-1');
    await signIn(page, email, 'mfa-pw-1');
    await expect(page).toHaveURL(/\/account/);
    await page.goto('/account/profile');
    const mfa = panel(page, 'Two-factor authentication');
    await expect(mfa.getByText('No authenticator app is set up.')).toBeVisible();

    await mfa.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(mfa.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = (await mfa.getByTestId('mfa-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);

    // A wrong code is refused and the enrolment stays open.
    await mfa.getByLabel('Code from the app').fill('12345');
    await mfa.getByRole('button', { name: 'Confirm' }).click();
    await expect(mfa.getByText('Enter the 6-digit code from your app.')).toBeVisible();

    await mfa.getByLabel('Code from the app').fill(totp(secret).generate());
    await mfa.getByRole('button', { name: 'Confirm' }).click();
    await expect(mfa.getByRole('status')).toHaveText('Authenticator app added');
    const remove = mfa.getByRole('button', { name: 'Remove Authenticator app' });
    await expect(remove).toBeVisible();
    await expectNoAxeViolations(page);

    await remove.click();
    await mfa.getByRole('button', { name: 'Delete' }).click();
    await expect(mfa.getByRole('status')).toHaveText('Authenticator app removed');
    await expect(mfa.getByText('No authenticator app is set up.')).toBeVisible();
  });

  test('a user with a verified factor is asked for its code at sign-in: a wrong code is refused, the right one reaches the dashboard', async ({
    page,
    request,
  }) => {
    const email = await confirmedAccount(request, 'mfa-signin', 'mfa-pw-2');
    await signIn(page, email, 'mfa-pw-2');
    await expect(page).toHaveURL(/\/account/);
    await page.goto('/account/profile');
    const mfa = panel(page, 'Two-factor authentication');
    await mfa.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await mfa.getByTestId('mfa-secret').textContent())!.trim();
    await mfa.getByLabel('Code from the app').fill(totp(secret).generate());
    await mfa.getByRole('button', { name: 'Confirm' }).click();
    await expect(mfa.getByRole('status')).toHaveText('Authenticator app added');

    await logout(page, email);
    await signIn(page, email, 'mfa-pw-2');
    // The auth dialog's code step (docs/architecture.md, "Auth dialog screens").
    // Focus moves to the new screen's title, as on every screen change of the dialog.
    await expect(page.getByRole('heading', { name: 'Two-factor authentication', level: 1 })).toBeFocused();
    const code = page.getByLabel('Authentication code');
    await expectNoAxeViolations(page);
    await code.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid code.');
    await expect(page).toHaveURL(/\/signinup/);
    // The enrolment has just used this period's code, and a code works once (docs/security.md,
    // TOTP): the next period's, which the server takes within its one step of clock drift, is
    // the code an authenticator app shows next.
    await code.fill(totp(secret).generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/account\/dashboard$/);
  });
});

test.describe('<lime-api-keys> on a third-party page', () => {
  let embed: EmbedServer;

  test.beforeAll(async ({ baseURL }) => {
    embed = await startEmbedServerFor(baseURL!);
  });

  test.afterAll(async () => {
    await embed?.close();
  });

  test('script tags only, strict CSP, hostile CSS: sign in in the overlay, create a key, see it listed, revoke it', async ({
    page,
    request,
  }) => {
    const email = await confirmedAccount(request, 'embed-keys', 'embed-pw-1');
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.addInitScript(() => {
      const w = window as unknown as { __csp: string[]; __events: string[] };
      w.__csp = [];
      w.__events = [];
      document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
      // The element's events reach the page (composed), the new key's without its secret.
      for (const name of ['key-created', 'key-deleted']) {
        document.addEventListener(name, (e) =>
          w.__events.push(
            `${name} ${Object.keys((e as CustomEvent<object>).detail)
              .sort()
              .join(',')}`,
          ),
        );
      }
    });
    const response = await page.goto(`${embed.url}/account.html`);
    expect(response?.headers()['content-security-policy']).toBe(embed.csp);

    const keys = page.locator('lime-api-keys');
    await expect(keys.getByText('Sign in to see this.')).toBeVisible();
    await expectNoAxeViolations(page);
    await keys.getByRole('button', { name: 'Sign in' }).click();
    const dialog = keys.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('textbox', { name: /e-?mail/i }).fill(email);
    await dialog.locator('input[type="password"]').fill('embed-pw-1');
    await dialog.getByRole('button', { name: /^sign in$/i }).click();
    await expect(dialog).toBeHidden();

    await expect(keys.getByText('You have no API keys yet.')).toBeVisible();
    await keys.getByRole('button', { name: 'Create API key' }).click();
    const secret = keys.getByTestId('new-api-key');
    await expect(secret).toHaveText(/\S{20,}/);
    await expect(keys.getByRole('row')).toHaveCount(2);
    await expect(keys.getByRole('cell', { name: /days?|\d{4}/ }).first()).toBeVisible();
    // The widget's own look survived the page's hostile CSS: its button keeps the theme's pill radius.
    const radius = await keys.getByRole('button', { name: 'Create API key' }).evaluate((el) => getComputedStyle(el).borderRadius);
    expect(radius).not.toBe('0px');
    await expectNoAxeViolations(page);

    // Revoke it: the row's Delete asks first, then the key is gone.
    const shown = (await keys.getByRole('row').nth(1).getByRole('cell').first().textContent())!.trim();
    await keys.getByRole('button', { name: `Delete key ${shown}` }).click();
    await keys
      .getByRole('group', { name: `Delete key ${shown}` })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expect(keys.getByRole('status')).toHaveText('API key deleted');
    await expect(keys.getByText('You have no API keys yet.')).toBeVisible();
    await expect(keys.getByRole('row')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __events: string[] }).__events)).toEqual([
      'key-created created_at,display_value,expiration_date,id',
      'key-deleted id',
    ]);

    expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
