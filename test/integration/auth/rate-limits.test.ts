import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle, migrateToLatest } from '../../../reference-app/server/db';
import { clientAddressFrom, RateLimiter } from '../../../reference-app/server/http';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { DEMO, globalServer, mailbox, PUBLISHER, supabase, uniqueEmail, type Target } from '../helpers';

// Rate limits that hold (issue 11, item 6): the client address behind trusted proxies, limits
// per account on sign-in, one mail of a kind per address per interval, and counters that every
// server process on one database shares.

const passwordSignIn = (target: Target, credentials: { email: string; password: string }, forwardedFor?: string) =>
  fetch(`${target.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: {
      apikey: target.authKey,
      'Content-Type': 'application/json',
      ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}),
    },
    body: JSON.stringify(credentials),
  });

describe('the client address behind TRUST_PROXY', () => {
  it('is the right-most untrusted hop, never an entry the client wrote', () => {
    expect(clientAddressFrom('6.6.6.6, 203.0.113.7', '10.0.0.1', 1)).toBe('203.0.113.7');
    expect(clientAddressFrom('6.6.6.6, 203.0.113.7, 10.0.0.2', '10.0.0.1', 2)).toBe('203.0.113.7');
    // Without trust the header is ignored; with fewer entries than proxies the left-most counts.
    expect(clientAddressFrom('6.6.6.6', '10.0.0.1', 0)).toBe('10.0.0.1');
    expect(clientAddressFrom(undefined, '10.0.0.1', 1)).toBe('10.0.0.1');
    expect(clientAddressFrom('203.0.113.7', '10.0.0.1', 3)).toBe('203.0.113.7');
  });

  describe('on a server with TRUST_PROXY=1', () => {
    let server: PlatformTestServer;
    beforeAll(async () => {
      server = await startPlatformServer({ env: { TRUST_PROXY: '1', RATE_LIMIT_SIGN_IN: '3', RATE_LIMIT_SIGN_IN_ACCOUNT: '0' } });
    });
    afterAll(() => server?.close());

    it('a new left-most X-Forwarded-For entry on every request does not dodge the per-IP limit', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await passwordSignIn(server, { ...DEMO, password: 'wrong' }, `198.51.100.${i}, 203.0.113.10`);
        statuses.push(response.status);
      }
      expect(statuses).toEqual([400, 400, 400, 429, 429, 429]);
      // Another client, as the proxy reports it, has its own count.
      expect((await passwordSignIn(server, DEMO, '198.51.100.1, 203.0.113.11')).status).toBe(200);
    });
  });
});

describe('failed sign-ins per account', () => {
  let server: PlatformTestServer;
  beforeAll(async () => {
    server = await startPlatformServer({ env: { TRUST_PROXY: '1', RATE_LIMIT_SIGN_IN_ACCOUNT: '3' } });
  });
  afterAll(() => server?.close());

  it('stop password guesses from many addresses at the account limit, right password included', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await passwordSignIn(server, { ...DEMO, password: `guess-${i}` }, `203.0.113.${20 + i}`)).status);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    const locked = await passwordSignIn(server, DEMO, '203.0.113.99');
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ code: 'over_request_rate_limit' });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The address is compared normalised, and other accounts are not affected.
    expect((await passwordSignIn(server, { email: ` ${DEMO.email.toUpperCase()} `, password: 'x' }, '203.0.113.98')).status).toBe(429);
    expect((await passwordSignIn(server, PUBLISHER, '203.0.113.99')).status).toBe(200);
  });

  it('do not count successful sign-ins', async () => {
    for (let i = 0; i < 5; i++) expect((await supabase(server).auth.signInWithPassword(PUBLISHER)).error).toBeNull();
  });
});

describe('mails per address (EMAIL_MIN_INTERVAL, default 60 s)', () => {
  const target = globalServer();

  it('allow one recovery mail per address and interval, for known and unknown addresses alike', async () => {
    const { email, password } = { email: uniqueEmail('flood'), password: 'secret-123' };
    await supabase(target).auth.signUp({ email, password });
    expect((await supabase(target).auth.resetPasswordForEmail(email)).error).toBeNull();
    const second = await supabase(target).auth.resetPasswordForEmail(email);
    expect(second.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(second.error!.message).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);
    expect((await mailbox(target, email)).filter((m) => /reset/i.test(m.subject))).toHaveLength(1);

    const nobody = uniqueEmail('nobody');
    expect((await supabase(target).auth.resetPasswordForEmail(nobody)).error).toBeNull();
    expect((await supabase(target).auth.resetPasswordForEmail(nobody)).error).toMatchObject({ status: 429 });
  });

  it('apply to magic links and sign-up resends, each kind on its own', async () => {
    const email = uniqueEmail('kinds');
    expect((await supabase(target).auth.signInWithOtp({ email })).error).toBeNull();
    expect((await supabase(target).auth.signInWithOtp({ email })).error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    // The magic link created the (unconfirmed) user; a sign-up confirmation is another kind of mail.
    expect((await supabase(target).auth.resend({ type: 'signup', email })).error).toBeNull();
    expect((await supabase(target).auth.resend({ type: 'signup', email })).error).toMatchObject({ status: 429 });
    expect(await mailbox(target, email)).toHaveLength(2);
  });
});

describe('counters in the database', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({});
    await migrateToLatest(database.db);
  });
  afterAll(() => database?.close());

  /** The statements a limiter sends while `hits` runs. */
  async function limiterWrites(hits: (limiter: RateLimiter) => Promise<unknown>): Promise<number> {
    let writes = 0;
    const counting = new Proxy(database.db, {
      get(target, key, receiver) {
        if (key !== 'executeQuery') return Reflect.get(target, key, receiver) as unknown;
        return (...args: Parameters<typeof target.executeQuery>) => {
          writes++;
          return target.executeQuery(...args);
        };
      },
    });
    await hits(new RateLimiter({ windowSeconds: 60, db: counting }));
    return writes;
  }

  it('are shared by every limiter on the database, as by several server processes', async () => {
    const processA = new RateLimiter({ windowSeconds: 60, db: database.db });
    const processB = new RateLimiter({ windowSeconds: 60, db: database.db });
    const decisions = [];
    for (let i = 0; i < 3; i++) {
      decisions.push((await processA.hit('signIn', '203.0.113.5', 4)).allowed);
      decisions.push((await processB.hit('signIn', '203.0.113.5', 4)).allowed);
    }
    expect(decisions).toEqual([true, true, true, true, false, false]);
    const row = await database.db.selectFrom('rate_limits').selectAll().where('key', '=', 'signIn:203.0.113.5').executeTakeFirstOrThrow();
    expect(row.points).toBe(6);
  });

  it('count concurrent hits exactly, together: the first five in order are allowed, in two statements', async () => {
    const limiter = new RateLimiter({ windowSeconds: 60, db: database.db });
    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.hit('burst', 'k', 5)));
    expect(results.map((r) => r.allowed)).toEqual([...Array<boolean>(5).fill(true), ...Array<boolean>(15).fill(false)]);
    const row = await database.db.selectFrom('rate_limits').selectAll().where('key', '=', 'burst:k').executeTakeFirstOrThrow();
    expect(row.points).toBe(20);
    // The first hit is written at once and the 19 that arrived meanwhile in the next statement.
    expect(await limiterWrites((counting) => Promise.all(Array.from({ length: 20 }, () => counting.hit('burst2', 'k', 5))))).toBe(2);
  });

  it('in memory (RATE_LIMIT_STORE=memory) are per process: the documented fallback', async () => {
    const processA = new RateLimiter({ windowSeconds: 60 });
    const processB = new RateLimiter({ windowSeconds: 60 });
    expect((await processA.hit('signIn', 'x', 1)).allowed).toBe(true);
    expect((await processA.hit('signIn', 'x', 1)).allowed).toBe(false);
    expect((await processB.hit('signIn', 'x', 1)).allowed).toBe(true);
  });
});
