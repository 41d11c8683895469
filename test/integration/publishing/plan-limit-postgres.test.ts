import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema } from '../../../reference-app/server/db';
import { startPlatformServer } from '../../../reference-app/server/testing';
import { testPostgres, type TestPostgres } from '../jobs/postgres';
import { confirmedUser, rawApi, signedIn, subscribe } from '../helpers';

// The private-service limit with several server processes on one PostgreSQL (docs/security.md,
// "Limits"): the count and the insert happen in one transaction under a per-user advisory lock,
// so parallel requests spread over two servers never leave more private services than the plan
// allows, and names raced for by two publishers end with one owner.

describe('plan limits on PostgreSQL with two servers', () => {
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = await testPostgres();
  }, 60_000);
  afterAll(async () => {
    if ('stop' in pg) await pg.stop();
  });

  it('creates at most the plan limit of private services from 20 parallel requests, and one service per name', async (ctx) => {
    if ('skip' in pg) {
      console.warn(`plan-limit-postgres: skipped: ${pg.skip}`);
      ctx.skip();
      return;
    }
    const schema = `lime_limits_${randomBytes(5).toString('hex')}`;
    const env = { LIMELIGHT_SECRET_KEY: randomBytes(32).toString('hex') };
    const a = await startPlatformServer({ databaseUrl: pg.url, schema, env });
    // One PUBLIC_URL: it is the tokens' issuer, so a token from one server is valid on the other.
    const b = await startPlatformServer({ databaseUrl: pg.url, schema, env: { ...env, PUBLIC_URL: a.url } });
    try {
      const credentials = await confirmedUser(a, 'limits');
      const { session, user } = await signedIn(a, credentials);
      await subscribe(a.platform.database.db, user.id, 'plus');
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          rawApi(i % 2 ? b : a, 'POST', '/v1/model_management/services', {
            token: session.access_token,
            body: { display_name: `Private ${i} ${schema}`, visibility: 'private' },
          }),
        ),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(2); // the plus plan's limit
      expect(statuses.filter((s) => s === 402)).toHaveLength(18);

      const same = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          rawApi(i % 2 ? b : a, 'POST', '/v1/model_management/services', {
            token: session.access_token,
            body: { display_name: `Contested ${schema}`, visibility: 'public' },
          }),
        ),
      );
      expect(same.filter((r) => r.status === 201)).toHaveLength(1);
      expect(same.filter((r) => r.status === 409)).toHaveLength(9);
    } finally {
      await b.close();
      await a.close();
      await dropSchema(pg.url, schema);
    }
  }, 180_000);
});
