import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noteOAuthProvider, parseOAuthError } from '../../../src/auth/oauthReturn';

describe('parseOAuthError: the error a social sign-in redirect came back with', () => {
  it('finds it in the fragment (implicit flow) and cleans only its parameters', () => {
    const found = parseOAuthError(
      'https://app.test/signinup?page_state=1#error=invalid_request&error_code=provider_disabled&error_description=Unsupported+provider',
    );
    expect(found).toEqual({ cleanUrl: 'https://app.test/signinup?page_state=1' });
  });

  it('finds it in the query (PKCE) and keeps the other parameters and fragment', () => {
    const found = parseOAuthError('https://app.test/signinup?page_state=1&error=access_denied&error_description=No#keep=1');
    expect(found).toEqual({ cleanUrl: 'https://app.test/signinup?page_state=1#keep=1' });
  });

  it('no error: null, whatever else the URL carries', () => {
    expect(parseOAuthError('https://app.test/signinup?page_state=1#access_token=x')).toBeNull();
    expect(parseOAuthError('https://app.test/')).toBeNull();
  });
});

// The unit project runs in Node: a minimal window (location, history) and sessionStorage stand
// in; test/e2e/auth.spec.ts covers the same in Chromium.
function fakeBrowser(href: string) {
  const store = new Map<string, string>();
  const location = { href };
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  vi.stubGlobal('window', {
    location,
    history: { state: null, replaceState: (_: unknown, __: string, url: string) => void (location.href = url) },
  });
  return { location, store };
}

describe('takeOAuthReturn: once per page load, with the provider noted before leaving', () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.unstubAllGlobals());

  it('reads the noted provider, forgets it, and takes the error out of the address bar', async () => {
    const browser = fakeBrowser('https://app.test/signinup?page_state=1#error=invalid_request&error_description=Unsupported+provider');
    noteOAuthProvider('github');
    const { takeOAuthReturn } = await import('../../../src/auth/oauthReturn');
    expect(takeOAuthReturn()).toEqual({ provider: 'github', cleanUrl: 'https://app.test/signinup?page_state=1' });
    expect(browser.location.href).toBe('https://app.test/signinup?page_state=1');
    expect(browser.store.size).toBe(0);
    // Asked again on the same page load (a remount, React's double render): the same answer.
    expect(takeOAuthReturn()?.provider).toBe('github');
  });

  it('no error in the URL: null, and a stale note is dropped', async () => {
    const browser = fakeBrowser('https://app.test/signinup?page_state=1');
    noteOAuthProvider('google');
    const { takeOAuthReturn } = await import('../../../src/auth/oauthReturn');
    expect(takeOAuthReturn()).toBeNull();
    expect(browser.store.size).toBe(0);
    expect(browser.location.href).toBe('https://app.test/signinup?page_state=1');
  });

  it('no note (a host page with its own ?error=, or an unknown note): the URL is left alone', async () => {
    const browser = fakeBrowser('https://shop.test/checkout?error=card_declined');
    const { takeOAuthReturn } = await import('../../../src/auth/oauthReturn');
    expect(takeOAuthReturn()).toBeNull();
    expect(browser.location.href).toBe('https://shop.test/checkout?error=card_declined');
    vi.resetModules();
    const other = fakeBrowser('https://app.test/x#error=server_error');
    other.store.set('lime-oauth-provider', 'myspace');
    const again = await import('../../../src/auth/oauthReturn');
    expect(again.takeOAuthReturn()).toBeNull();
    expect(other.location.href).toBe('https://app.test/x#error=server_error');
  });
});
