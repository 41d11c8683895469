import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../reference-app/server/config';
import { ConfigError } from '../../../reference-app/server/config';
import { createSecretBox } from '../../../reference-app/server/crypto';
import { openDatabase, migrateToLatest } from '../../../reference-app/server/db';
import { seedDatabase } from '../../../reference-app/server/seed';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { fakeSmtpServer } from '../fakes';
import { DEMO, globalServer, PUBLISHER, supabase } from '../helpers';

// Production mode (issue 11, item 1): NODE_ENV=production refuses to start without real mail,
// a secret key and an explicit payment provider, has no dev mailbox and no account with a
// published password. Outside production the dev mailbox answers this machine only.

const PRODUCTION = {
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://mail.example:587',
  LIMELIGHT_SECRET_KEY: randomBytes(32).toString('hex'),
  PAYMENT_PROVIDER: 'sandbox',
};

describe('NODE_ENV=production configuration', () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env, '/srv');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('loadConfig accepted the configuration');
  };

  it('refuses to start without SMTP_URL, naming the risk', () => {
    const { SMTP_URL: _smtp, ...env } = PRODUCTION;
    expect(refusal(env)).toMatch(/^SMTP_URL is required with NODE_ENV=production: .*dev mailbox.*password-reset links/);
  });

  it('refuses to start without LIMELIGHT_SECRET_KEY or without an explicit payment provider', () => {
    const { LIMELIGHT_SECRET_KEY: _key, ...noKey } = PRODUCTION;
    expect(refusal(noKey)).toMatch(/^LIMELIGHT_SECRET_KEY is required with NODE_ENV=production/);
    const { PAYMENT_PROVIDER: _provider, ...noProvider } = PRODUCTION;
    expect(refusal(noProvider)).toMatch(/^PAYMENT_PROVIDER is required with NODE_ENV=production: .*PAYMENT_PROVIDER=sandbox/);
  });

  it('accepts a complete configuration, without the dev mailbox', () => {
    const config = loadConfig(PRODUCTION, '/srv');
    expect(config).toMatchObject({ production: true, devMailbox: false, payments: { provider: 'sandbox' } });
    expect(loadConfig({ ...PRODUCTION, PAYMENT_PROVIDER: '', STRIPE_SECRET_KEY: 'sk_test_x' }, '/srv').payments.provider).toBe('stripe');
    // Development keeps the friendly defaults.
    expect(loadConfig({}, '/srv')).toMatchObject({ production: false, devMailbox: true, payments: { provider: 'sandbox' } });
  });
});

describe('a production server', () => {
  let smtp: Awaited<ReturnType<typeof fakeSmtpServer>>;
  let server: PlatformTestServer;
  beforeAll(async () => {
    smtp = await fakeSmtpServer();
    // Its database was seeded in development (the test template): the demo passwords must go.
    server = await startPlatformServer({ env: { ...PRODUCTION, SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('has no dev mailbox', async () => {
    expect((await fetch(`${server.url}/dev/mailbox.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/dev/mailbox`)).status).toBe(404);
  });

  it('lets nobody in with the published demo passwords', async () => {
    for (const account of [DEMO, PUBLISHER]) {
      expect((await supabase(server).auth.signInWithPassword(account)).error).toMatchObject({ code: 'invalid_credentials' });
    }
  });

  it('serves the sandbox provider only because PAYMENT_PROVIDER=sandbox asked for it', async () => {
    expect(server.platform.config.payments.provider).toBe('sandbox');
  });
});

describe('seeding for production', () => {
  // A fresh PGlite (initdb, every migration, the seed) takes longer than the servers, which copy a prepared one.
  it('creates the catalogue and its owners, but no account with a password', async () => {
    const database = await openDatabase({});
    try {
      await migrateToLatest(database.db);
      await seedDatabase(database.db, createSecretBox(randomBytes(32)), { demoAccounts: false });
      const users = await database.db.selectFrom('users').select(['email', 'encrypted_password']).orderBy('email').execute();
      expect(users.map((u) => u.email)).toEqual(['publisher@limelight.dev', 'team@limelight.dev']);
      expect(users.every((u) => u.encrypted_password === null)).toBe(true);
      expect(await database.db.selectFrom('api_keys').select('id').execute()).toHaveLength(0);
      expect(await database.db.selectFrom('registry_credentials').select('id').execute()).toHaveLength(0);
      expect((await database.db.selectFrom('models').select('id').execute()).length).toBeGreaterThan(10);
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe('the dev mailbox outside production', () => {
  const target = globalServer();

  it('answers a loopback client', async () => {
    expect((await fetch(`${target.url}/dev/mailbox.json`)).status).toBe(200);
  });

  it('refuses a request a proxy forwarded, even from a loopback peer', async () => {
    for (const [name, value] of [
      ['X-Forwarded-For', '203.0.113.9'],
      ['Forwarded', 'for=203.0.113.9'],
      ['X-Real-IP', '203.0.113.9'],
    ]) {
      const response = await fetch(`${target.url}/dev/mailbox.json`, { headers: { [name!]: value! } });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ detail: 'The dev mailbox answers only requests from this machine (loopback)' });
    }
  });

  describe('behind TRUST_PROXY=1', () => {
    let server: PlatformTestServer;
    beforeAll(async () => {
      server = await startPlatformServer({ env: { TRUST_PROXY: '1' } });
    });
    afterAll(() => server?.close());

    it('goes by the client address the proxy reports', async () => {
      const from = (address: string) => fetch(`${server.url}/dev/mailbox.json`, { headers: { 'X-Forwarded-For': address } });
      expect((await from('203.0.113.9')).status).toBe(403);
      expect((await from('127.0.0.1, 203.0.113.9')).status).toBe(403);
      expect((await from('127.0.0.1')).status).toBe(200);
    });
  });
});
