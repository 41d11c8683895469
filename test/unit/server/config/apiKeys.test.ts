import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../reference-app/server/config';
import { loadApiKeysConfig } from '../../../../reference-app/server/config/apiKeys';
import { ConfigError } from '../../../../reference-app/server/config/env';

// ANON_KEY and SERVICE_ROLE_KEY (reference-app/server/config/apiKeys.ts): the operator's auth
// keys, checked at start against the mistakes that would hand out the admin API.

function refusal(read: () => unknown): ConfigError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('the value was accepted');
}

/** An unsigned JWT with these claims: the checks read the payload only, as the keys are compared as given. */
const jwt = (claims: object) =>
  `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2lnbmF0dXJlLW9mLTMyLWJ5dGVzLWF0LWxlYXN0`;
const SERVICE = 'sk_test_9f8e7d6c5b4a39281706f5e4d3c2b1a0';

describe('ANON_KEY and SERVICE_ROLE_KEY', () => {
  it('are read by loadConfig, unset meaning the stored keys', () => {
    expect(loadConfig({}).apiKeys).toEqual({ anon: undefined, serviceRole: undefined });
    expect(loadConfig({ ANON_KEY: ' pk_test ', SERVICE_ROLE_KEY: SERVICE }).apiKeys).toEqual({ anon: 'pk_test', serviceRole: SERVICE });
  });

  it("accept self-hosted Supabase's JWT keys for their own roles", () => {
    const anon = jwt({ role: 'anon', iss: 'supabase' });
    const serviceRole = jwt({ role: 'service_role', iss: 'supabase' });
    expect(loadApiKeysConfig({ ANON_KEY: anon, SERVICE_ROLE_KEY: serviceRole }, true)).toEqual({ anon, serviceRole });
  });

  it('refuse a short service-role key without quoting it', () => {
    const error = refusal(() => loadApiKeysConfig({ SERVICE_ROLE_KEY: 'hunter2-admin' }, false));
    expect(error.variable).toBe('SERVICE_ROLE_KEY');
    expect(error.message).toBe(
      'SERVICE_ROLE_KEY must be at least 32 characters, got 13: it opens every account (make one with `openssl rand -base64 32`)',
    );
    expect(error.message).not.toContain('hunter2');
  });

  it('refuse keys that cannot travel in a header, quoting only the public one', () => {
    const secret = refusal(() => loadApiKeysConfig({ SERVICE_ROLE_KEY: `${SERVICE} with spaces` }, false));
    expect(secret.message).toBe('SERVICE_ROLE_KEY must be printable ASCII without spaces, up to 4096 characters (got 52 characters)');
    const anon = refusal(() => loadApiKeysConfig({ ANON_KEY: 'pk ünïcode' }, false));
    expect(anon.message).toBe('ANON_KEY must be printable ASCII without spaces, up to 4096 characters (got "pk ünïcode")');
  });

  it('refuse the publishable key as the service-role key', () => {
    const error = refusal(() => loadApiKeysConfig({ ANON_KEY: SERVICE, SERVICE_ROLE_KEY: SERVICE }, false));
    expect(error.variable).toBe('SERVICE_ROLE_KEY');
    expect(error.message).toBe('SERVICE_ROLE_KEY must differ from ANON_KEY: the publishable key is public');
  });

  it('refuse swapped JWT keys', () => {
    const error = refusal(() => loadApiKeysConfig({ SERVICE_ROLE_KEY: jwt({ role: 'anon' }) }, false));
    expect(error.message).toBe(
      'SERVICE_ROLE_KEY is a JWT for the role "anon", not "service_role": are ANON_KEY and SERVICE_ROLE_KEY swapped?',
    );
    expect(refusal(() => loadApiKeysConfig({ ANON_KEY: jwt({ role: 'service_role' }) }, false)).variable).toBe('ANON_KEY');
  });

  it("refuse Supabase's published demo service-role key in production only", () => {
    const demo = jwt({ role: 'service_role', iss: 'supabase-demo' });
    expect(loadApiKeysConfig({ SERVICE_ROLE_KEY: demo }, false).serviceRole).toBe(demo);
    const error = refusal(() => loadApiKeysConfig({ SERVICE_ROLE_KEY: demo }, true));
    expect(error.message).toMatch(
      /^SERVICE_ROLE_KEY is Supabase's published demo key \(issuer "supabase-demo"\): with NODE_ENV=production/,
    );
    expect(error.message).not.toContain(demo);
  });
});
