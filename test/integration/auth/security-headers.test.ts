import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, HSTS } from '../../../reference-app/server/http';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { globalServer } from '../helpers';

// Security headers (issue 11, item 11): a Content-Security-Policy without 'unsafe-inline',
// no framing, HSTS only when the site is reached over HTTPS. That the built app runs under the
// policy without violations is checked in Chromium by test/e2e/security-headers.spec.ts.

const directives = (policy: string) =>
  Object.fromEntries(
    policy.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );

describe('on every response', () => {
  const target = globalServer();

  it('a CSP that allows only the site’s own scripts and styles, and no framing', async () => {
    for (const path of ['/config.json', '/auth/v1/health', '/v1/openapi.json', '/no-such-page']) {
      const response = await fetch(`${target.url}${path}`, { headers: { apikey: target.authKey } });
      expect(response.headers.get('content-security-policy'), path).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const policy = directives(CONTENT_SECURITY_POLICY);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['style-src']).toEqual(["'self'"]);
    // The code highlighter's worker is a same-origin file (no blob: workers).
    expect(policy['worker-src']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    // Images from the site alone (issue 50): covers are the platform's own, data: the bundled fallback.
    expect(policy['img-src']).toEqual(["'self'", 'data:']);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('no HSTS over plain HTTP, and a client’s X-Forwarded-Proto is not believed without TRUST_PROXY', async () => {
    expect((await fetch(`${target.url}/config.json`)).headers.get('strict-transport-security')).toBeNull();
    const spoofed = await fetch(`${target.url}/config.json`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(spoofed.headers.get('strict-transport-security')).toBeNull();
  });

  it('server-rendered pages get a policy with no script at all', async () => {
    const page = await fetch(`${target.url}/dev/mailbox`);
    const policy = directives(page.headers.get('content-security-policy')!);
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['script-src']).toBeUndefined();
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
  });
});

describe('HSTS', () => {
  let proxied: PlatformTestServer;
  let https: PlatformTestServer;
  beforeAll(async () => {
    [proxied, https] = await Promise.all([
      startPlatformServer({ env: { TRUST_PROXY: '1' } }),
      startPlatformServer({ env: { PUBLIC_URL: 'https://limelight.example' } }),
    ]);
  });
  afterAll(() => Promise.all([proxied?.close(), https?.close()]));

  it('is sent when a trusted proxy says the client used HTTPS', async () => {
    const response = await fetch(`${proxied.url}/config.json`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(response.headers.get('strict-transport-security')).toBe(HSTS);
    expect(
      (await fetch(`${proxied.url}/config.json`, { headers: { 'X-Forwarded-Proto': 'http' } })).headers.get('strict-transport-security'),
    ).toBeNull();
  });

  it('is sent on every response when PUBLIC_URL is https', async () => {
    expect((await fetch(`${https.url}/config.json`)).headers.get('strict-transport-security')).toBe(HSTS);
  });
});
