import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { storageKeyFor } from '../../../src/auth/client';

// Fresh, confirmed accounts for journeys that change an account (its password, its factors),
// made through the auth API and the dev mailbox rather than the sign-up screens (tested in
// auth.spec.ts), so each test starts from a user no other test touches.

export const uniqueEmail = (tag: string) => `e2e-${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;

export async function authKeyOf(request: APIRequestContext): Promise<string> {
  const config = (await (await request.get('/config.json')).json()) as { authKey: string };
  return config.authKey;
}

/** Signs up `email` by the auth API and follows the confirmation link from the dev mailbox. */
export async function confirmedAccount(request: APIRequestContext, tag: string, password: string): Promise<string> {
  const email = uniqueEmail(tag);
  const apikey = await authKeyOf(request);
  const signUp = await request.post('/auth/v1/signup', { headers: { apikey }, data: { email, password } });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`);
        const messages = response.ok() ? ((await response.json()) as Array<{ links: string[] }>) : [];
        link = messages.flatMap((m) => m.links).find((l) => /type=signup/.test(l));
        return link;
      },
      { message: `the confirmation mail to ${email}`, timeout: 15_000 },
    )
    .toBeTruthy();
  const confirm = await request.get(link!, { maxRedirects: 0 });
  expect(confirm.status(), 'confirmation link').toBeLessThan(400);
  return email;
}

/** Signs in through the site's sign-in page and waits for the account area. */
export async function signInOnPage(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/signinup?page_state=1');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/account/);
}

/**
 * Signs `email` in through the auth API and leaves the session where the site's auth client keeps
 * it (localStorage under supabase-js's key, src/auth/client.ts `storageKeyFor`), so the next
 * `page.goto` opens the site signed in. For journeys that need a signed-in user but do not test
 * signing in: the sign-in page (tested in auth.spec.ts and account.spec.ts) and the account
 * dashboard it leads to cost two full page loads per test. Each call is its own session, as a
 * sign-in on the page is; the one navigation is to a JSON file, which runs none of the app.
 */
export async function signInByApi(page: Page, email: string, password: string): Promise<void> {
  const apikey = await authKeyOf(page.request);
  const response = await page.request.post('/auth/v1/token?grant_type=password', { headers: { apikey }, data: { email, password } });
  expect(response.ok(), `sign-in of ${email}: ${await response.text()}`).toBe(true);
  const session = await response.text();
  await page.goto('/config.json');
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [storageKeyFor(page.url()), session]);
}
