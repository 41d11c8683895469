import { axeAudit } from './support/axe';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { createAuthClient } from '../../src/auth/client';
import { confirmedAccount, uniqueEmail } from './support/accounts';

// Sign-in and sign-up as a visitor meets them (issue 5), against the running site and the local
// platform server; e-mail links are read from its dev mailbox (GET /dev/mailbox.json?to=).
// Accounts the tests need confirmed are made by the auth API (support/accounts.ts): the sign-up,
// confirmation and logout screens are the first test's journey, not repeated in every test.

interface MailboxMessage {
  to: string;
  subject: string;
  links: string[];
  created_at: string;
}

/** Newest link in the mailbox of `to` matching `pattern` (and not one of `seen`). */
async function mailLink(request: APIRequestContext, to: string, pattern: RegExp, seen: string[] = []): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
        if (!response.ok()) return undefined;
        const messages = (await response.json()) as MailboxMessage[];
        found = messages.flatMap((m) => m.links).find((link) => pattern.test(link) && !seen.includes(link));
        return found;
      },
      { message: `a mail to ${to} with a link matching ${pattern}`, timeout: 15_000 },
    )
    .toBeTruthy();
  return found!;
}

/** The 6-digit code of the newest mail to `to` whose subject matches `subject`. */
async function mailCode(request: APIRequestContext, to: string, subject: RegExp): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
        const messages = response.ok() ? ((await response.json()) as Array<MailboxMessage & { text: string }>) : [];
        code = /Or enter this code: (\d{6})/.exec(messages.find((m) => subject.test(m.subject))?.text ?? '')?.[1];
        return code;
      },
      { message: `a mail to ${to} with a code`, timeout: 15_000 },
    )
    .toBeTruthy();
  return code!;
}

async function expectNoAxeViolations(page: Page) {
  const results = await axeAudit(page).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function fillCredentials(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/signinup?page_state=1');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await fillCredentials(page, email, password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function logout(page: Page, email: string) {
  await page.getByRole('button', { name: `Account menu for ${email}` }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  // product-rules §2: after logging out the user lands on /.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
}

test.describe('sign-in and sign-up (product-rules §2, §4, §8)', () => {
  test('sign up, confirm by mail, sign in, stay signed in over a reload, sign out', async ({ page, request }) => {
    const email = uniqueEmail('journey');
    const password = 'journey-pw-1';

    // Home's call to action leads to sign-up (page_state 0).
    await page.goto('/signinup?page_state=0');
    await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
    await fillCredentials(page, email, password);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();

    // product-rules §4: sign-up success with the e-mail not yet verified goes to 2, with the inbox prompt.
    await expect(page.getByRole('heading', { level: 1, name: 'Account created' })).toBeVisible();
    await expect(page).toHaveURL(/page_state=2/);
    await expect(page.getByText(`We sent a confirmation link to ${email}. Please check your inbox and spam folder.`)).toBeVisible();

    // A new user (terms not yet accepted) is greeted "Welcome", not "Welcome back" (issue 25).
    // product-rules §4: the confirmation link lands on the page with emailconfirmed=true, signed in;
    // product-rules §2: sign-up leads to /account/dashboard.
    const link = await mailLink(request, email, /type=signup/);
    await page.goto(link);
    await expect(page).toHaveURL(/\/account\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${email}` })).toBeVisible();
    await logout(page, email);

    // Sign in with the confirmed account: the sign-in page sends to /account, i.e. the dashboard.
    await page.getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/signinup\?page_state=1$/);
    await fillCredentials(page, email, password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/account\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${email}` })).toBeVisible();

    // The session is stored: a reload stays signed in.
    await page.reload();
    await expect(page).toHaveURL(/\/account\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${email}` })).toBeVisible();
    await expect(page.getByRole('button', { name: `Account menu for ${email}` })).toBeVisible();

    // The dashboard's data comes from the platform API with the session's token, without warnings
    // (the sign-in was registered: profile/sign_in_sign_up).
    await expect(page.getByTestId('credit-balance')).toHaveText(/^\d[\d,]*$/);
    await expect(page.getByTestId('calls-this-month')).toHaveText(/^\d[\d,]*$/);
    await expect(page.getByTestId('active-keys')).toHaveText(/^\d+$/);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expectNoAxeViolations(page);

    // Account header: the SDK menu opens the SDK guide on the site's docs (issue 50).
    await page.getByRole('button', { name: 'SDK' }).click();
    await expect(page.getByRole('link', { name: /SDKs: Python and JavaScript/ })).toHaveAttribute('href', '/docs/sdk');
    await page.keyboard.press('Escape');

    // The public header shows Dashboard instead of Login for a logged-in user.
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/account/dashboard');
    await expect(page.getByRole('link', { name: 'Login' })).toHaveCount(0);

    // A logged-in visitor on the sign-in page is sent to /account.
    await page.goto('/signinup?page_state=1');
    await expect(page).toHaveURL(/\/account\/dashboard$/);

    await logout(page, email);
    await page.goto('/account/dashboard');
    await expect(page).toHaveURL(/\/signinup\?page_state=1$/);
  });

  test("a wrong password shows 'Invalid email or password.'", async ({ page }) => {
    await signIn(page, 'demo@limelight.dev', 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
    await expect(page).toHaveURL(/page_state=1/);
    await expectNoAxeViolations(page);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  });

  test('the form is not sent while invalid (product-rules §5)', async ({ page }) => {
    await page.goto('/signinup?page_state=1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('E-mail is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await page.getByLabel('E-mail').fill('not-an-email');
    await expect(page.getByText('E-mail must be valid')).toBeVisible();
  });

  test('signing up again with the same e-mail shows UserExists; resending works', async ({ page, request }) => {
    const email = await confirmedAccount(request, 'exists', 'exists-pw-1');
    await page.goto('/signinup?page_state=0');
    await fillCredentials(page, email, 'another-pw-2');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(
      `User ${email} already exists. Sign in, use another email or reset your password. If you didn't receive the verification e-mail click the following button.`,
    );
    await alert.getByRole('button', { name: 'Resend verification email' }).click();
    await expect(page.getByText(`We sent a new verification e-mail to ${email}. Please check your inbox and spam folder.`)).toBeVisible();
  });

  test('forgot password: mail, link, new password, sign in with it', async ({ page, request }) => {
    const email = await confirmedAccount(request, 'reset', 'old-password-1');
    await page.goto('/signinup?page_state=1');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/page_state=3/);
    await expect(page.getByRole('heading', { level: 1, name: 'Password recovery' })).toBeVisible();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send recovery email' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Recovery email sent' })).toBeVisible();
    await expect(page).toHaveURL(/page_state=4/);
    await expect(page.getByText(/Please check your inbox and spam folder\./)).toBeVisible();

    // product-rules §2: the recovery link returns to /signinup?passwordreset=true; with its session: 5.
    await page.goto(await mailLink(request, email, /type=recovery/));
    await expect(page.getByRole('heading', { level: 1, name: 'Set new password' })).toBeVisible();
    await expect(page.getByLabel('New password', { exact: true })).toBeVisible();
    // Page state 5's axe audit (the one of the seven states that needs a recovery session).
    await expectNoAxeViolations(page);
    await page.getByLabel('New password', { exact: true }).fill('new-password-2');
    await page.getByRole('button', { name: 'Set new password' }).click();

    // product-rules §4: back to 1 with the success alert, signed out.
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Password reset successfully!' })).toHaveText(
      'Password reset successfully! You can now sign in with your new password.',
    );
    await expect(page).toHaveURL(/page_state=1/);
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();

    await fillCredentials(page, email, 'old-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
    await fillCredentials(page, email, 'new-password-2');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/account\/dashboard$/);
  });

  test('a recovery link without a session: the invalid-link error on 3', async ({ page }) => {
    await page.goto('/signinup?passwordreset=true');
    await expect(page.getByRole('heading', { level: 1, name: 'Password recovery' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('Invalid or expired recovery link. Please request a new password reset.');
    await expect(page).toHaveURL(/page_state=3/);
  });

  test('guarded routes while signed out go to sign-in, page_state 1 (product-rules §4)', async ({ page }) => {
    for (const path of ['/account/dashboard', '/account', '/account/profile', '/APIs/edit/some-service']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/signinup\?page_state=1$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    }
  });

  test('/SignInUp is the same page', async ({ page }) => {
    await page.goto('/SignInUp?page_state=3');
    await expect(page.getByRole('heading', { level: 1, name: 'Password recovery' })).toBeVisible();
  });

  test('axe reports no violations in any of the seven page states', async ({ page }) => {
    const titles = ['Create your account', 'Sign in', 'Account created', 'Password recovery', 'Recovery email sent'];
    for (const [pageState, title] of titles.entries()) {
      await page.goto(`/signinup?page_state=${pageState}`);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expectNoAxeViolations(page);
    }
    await page.goto('/signinup?page_state=6');
    await expect(page.getByRole('heading', { level: 1, name: 'Password reset' })).toBeVisible();
    await expectNoAxeViolations(page);

    // With messages showing: a field error and an alert.
    await page.goto('/signinup?page_state=1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('E-mail is required')).toBeVisible();
    await expectNoAxeViolations(page);
    // State 5 (set a new password) needs a recovery session: the recovery journey above audits it.
  });
});

test.describe('the second factor at sign-in (TOTP)', () => {
  /** Enrols and confirms a TOTP factor for the account through the auth API (the MFA panel's calls). */
  async function enrolTotp(request: APIRequestContext, baseURL: string, email: string, password: string) {
    const { authKey } = (await (await request.get('/config.json')).json()) as { authKey: string };
    const data: Record<string, string> = {};
    const client = createAuthClient({
      authUrl: baseURL,
      authKey,
      detectSessionInUrl: false,
      storage: { getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v), removeItem: (k) => void delete data[k] },
    });
    expect((await client.signInWithPassword({ email, password })).error).toBeNull();
    const enrolled = await client.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(enrolled.error).toBeNull();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolled.data!.totp.secret) });
    expect((await client.mfa.challengeAndVerify({ factorId: enrolled.data!.id, code: totp.generate() })).error).toBeNull();
    await client.signOut();
    return totp;
  }

  test('after the password: asked for the code, a wrong code refused, the right one signs in', async ({ page, request, baseURL }) => {
    const password = 'mfa-e2e-pw-1';
    const email = await confirmedAccount(request, 'mfa', password);
    const totp = await enrolTotp(request, baseURL!, email, password);

    await signIn(page, email, password);
    await expect(page.getByRole('heading', { level: 1, name: 'Two-factor authentication' })).toBeVisible();
    await expect(page).toHaveURL(/\/signinup\?page_state=1$/);
    await expectNoAxeViolations(page);

    const wrong = String((Number(totp.generate()) + 500_000) % 1_000_000).padStart(6, '0');
    await page.getByLabel('Authentication code').fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid code. Check your authenticator app and enter the current code.');
    await expect(page).toHaveURL(/\/signinup/);

    // A code works once (the enrolment used this window's): the next window's code, which the
    // server accepts one step early.
    await page.getByLabel('Authentication code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByLabel('Authentication code').press('Enter');
    await expect(page).toHaveURL(/\/account(\/dashboard)?$/);
    const token = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'));
      return key ? (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token : null;
    });
    expect(JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString()).aal).toBe('aal2');
  });

  test('cancelling the code step signs out', async ({ page, request, baseURL }) => {
    const password = 'mfa-e2e-pw-2';
    const email = await confirmedAccount(request, 'mfa-cancel', password);
    await enrolTotp(request, baseURL!, email, password);
    await signIn(page, email, password);
    await page.getByRole('button', { name: 'Cancel and sign out' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await page.goto('/account');
    await expect(page).toHaveURL(/\/signinup\?page_state=1$/);
  });
});

test.describe('sign-in: providers, a returned OAuth error, the e-mail code (issue 25)', () => {
  // The e2e server turns on GitHub only (playwright.config.ts), its "provider" declining.
  test('only the enabled provider is offered, with its logo hidden from assistive technology', async ({ page, request }) => {
    const config = (await (await request.get('/config.json')).json()) as { authKey: string };
    const settings = (await (await request.get('/auth/v1/settings', { headers: { apikey: config.authKey } })).json()) as {
      external: Record<string, boolean>;
    };
    expect(settings.external).toMatchObject({ github: true, google: false, azure: false, facebook: false });
    await page.goto('/signinup?page_state=1');
    const github = page.getByRole('button', { name: 'Continue with GitHub' });
    await expect(github).toBeVisible();
    await expect(page.getByRole('button', { name: /^Continue with / })).toHaveCount(1);
    await expect(github.locator('svg')).toHaveAttribute('aria-hidden', 'true');
    await expectNoAxeViolations(page);
  });

  test('a declined provider sign-in comes back with the error shown inline and gone from the address bar', async ({ page }) => {
    await page.goto('/signinup?page_state=1');
    await page.getByRole('button', { name: 'Continue with GitHub' }).click();
    // The round trip: /auth/v1/authorize -> the "provider" (declines) -> /auth/v1/callback -> back here.
    await expect(page.getByRole('alert')).toHaveText('Could not sign in with GitHub. Please try again later or use other login method.');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    expect(page.url()).toMatch(/\/signinup\?page_state=1$/);
    await expectNoAxeViolations(page);
    // Gone for good: a reload shows the plain form.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('the 6-digit code from the confirmation mail confirms the account on the account-created screen', async ({ page, request }) => {
    const email = uniqueEmail('code');
    await page.goto('/signinup?page_state=0');
    await fillCredentials(page, email, 'code-password-1');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Account created' })).toBeVisible();
    await expectNoAxeViolations(page);

    const code = page.getByLabel('Confirmation code');
    // A wrong code is refused on the screen, which stays.
    const right = await mailCode(request, email, /confirm/i);
    await code.fill(right === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm account' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid or expired code. Check the e-mail, or resend it to receive a new code.');
    await expect(code).toHaveValue('');

    await code.fill(right);
    await page.getByRole('button', { name: 'Confirm account' }).click();
    // Confirmed and signed in: sign-ups go to the dashboard.
    await expect(page).toHaveURL(/\/account\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${email}` })).toBeVisible();
    // The address is confirmed: a password sign-in works (an unconfirmed one is refused).
    await logout(page, email);
    await signIn(page, email, 'code-password-1');
    await expect(page).toHaveURL(/\/account\/dashboard$/);
  });
});
