import { describe, expect, it } from 'vitest';
import { PUBLISHER_SHARE } from '@limelight/rules';
import { CREDITS_PER_USD } from '../../../src/run/metering';
import { seededEarningEntries, seededEarnings, SEED_MODELS } from '../../../reference-app/server/seed';
import { apiClients, globalServer, PUBLISHER, signedIn } from '../helpers';

// The seed is consistent with its run counts (issue 25, item 8): the publisher's public services
// show what their runs earned (runs x price x the publisher's share), private ones nothing.

const target = globalServer();

describe('seeded earnings', () => {
  it('each public service of the publisher earned runs x price per run x the publisher share', () => {
    const sketch = SEED_MODELS.find((m) => m.id === 'sketch-to-render')!;
    expect(sketch.runs).toBe(12_345);
    expect(seededEarnings(sketch)).toBeCloseTo(12_345 * 0.004 * CREDITS_PER_USD * PUBLISHER_SHARE, 3);
    expect(seededEarnings({ ...sketch, isPrivate: true })).toBe(0);
    const entries = seededEarningEntries().filter((e) => e.serviceId === 'sketch-to-render');
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBeCloseTo(seededEarnings(sketch), 3);
  });

  it('the hosting list shows them: no public service with runs earns 0 credits', async () => {
    const { session } = await signedIn(target, PUBLISHER);
    const services = await apiClients(target, session.access_token).services.list();
    if (!services.ok) throw new Error(services.error);
    const publicWithRuns = services.data.filter((s) => s.visibility === 'public' && s.n_usages > 0);
    expect(publicWithRuns.map((s) => s.id)).toContain('sketch-to-render');
    for (const service of publicWithRuns) {
      const seeded = SEED_MODELS.find((m) => m.id === service.id)!;
      expect(service.earnings_credits, service.id).toBeCloseTo(seededEarnings(seeded), 3);
      expect(service.earnings_credits, service.id).toBeGreaterThan(0);
    }
    for (const service of services.data.filter((s) => s.visibility === 'private')) expect(service.earnings_credits, service.id).toBe(0);
  });
});
