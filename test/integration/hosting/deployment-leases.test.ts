// One manager per deployment across processes (docs/deploy.md, "Several runners"): two
// database handles on one real PostgreSQL stand for two server processes; exactly one holds a
// deployment's lease, and the other takes it over when the holder stops renewing it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle, migrateToLatest } from '../../../reference-app/server/db';
// reaches inside: the lease statements themselves, raced from two database handles
import { claimLease, leaseHolder, releaseLease } from '../../../reference-app/server/hosting/deploymentLeases';
import { testPostgres, type TestPostgres } from '../jobs/postgres';

const pg: TestPostgres = await testPostgres();
if ('skip' in pg) console.warn(`deployment lease tests skipped: ${pg.skip}`);

describe.skipIf('skip' in pg)('deployment leases on PostgreSQL', () => {
  let a: DatabaseHandle;
  let b: DatabaseHandle;

  beforeAll(async () => {
    const url = (pg as { url: string }).url;
    const schema = `leases_${Date.now()}`;
    a = await openDatabase({ databaseUrl: url, schema });
    await migrateToLatest(a.db, schema);
    b = await openDatabase({ databaseUrl: url, schema });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    if (!('skip' in pg)) await pg.stop();
  });

  it('exactly one of two racing processes manages a deployment', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => claimLease(i % 2 ? a.db : b.db, 'dep-race', `runner-${i}`)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect(await leaseHolder(b.db, 'dep-race')).toBe(`runner-${winner}`);
    // The holder renews; the others still cannot take it.
    expect(await claimLease(a.db, 'dep-race', `runner-${winner}`)).toBe(true);
    expect(await claimLease(b.db, 'dep-race', 'runner-other')).toBe(false);
  });

  it('a lease whose holder stopped renewing is taken over; a released one at once', async () => {
    expect(await claimLease(a.db, 'dep-takeover', 'runner-a', 300)).toBe(true);
    expect(await claimLease(b.db, 'dep-takeover', 'runner-b', 300)).toBe(false);
    await new Promise((r) => setTimeout(r, 400));
    expect(await claimLease(b.db, 'dep-takeover', 'runner-b')).toBe(true);
    expect(await claimLease(a.db, 'dep-takeover', 'runner-a')).toBe(false);
    await releaseLease(b.db, 'dep-takeover', 'runner-b');
    expect(await leaseHolder(a.db, 'dep-takeover')).toBeNull();
    expect(await claimLease(a.db, 'dep-takeover', 'runner-a')).toBe(true);
  });
});
