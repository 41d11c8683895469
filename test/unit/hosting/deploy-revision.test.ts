// One revision format for a container service's spec (issue 35, finding 7): the owner's save
// hands the runner a spec with port, health_path and concurrency omitted, the runner's renewal
// builds one from the stored row with the defaults filled in. Compared as different, every new
// service was deployed a second time, concurrently with its first deploy.
import { describe, expect, it } from 'vitest';
import { revisionOf } from '../../../reference-app/server/hosting/leasedFleet';
import { DEFAULT_CONCURRENCY, DEFAULT_HEALTH_PATH, DEFAULT_PORT } from '../../../reference-app/server/hosting/contract';
import type { ContainerSpec } from '../../../reference-app/server/hosting/fleet';

const saved: ContainerSpec = {
  serviceId: 'svc',
  image: 'registry.example.com/me/model:1',
  registryAuth: { registry: 'registry.example.com', username: 'me', password: 'pw' },
  gpu: 'rtx4090',
  minInstances: 1,
  maxInstances: 2,
  idleTimeoutS: 300,
  port: undefined,
  healthPath: undefined,
  concurrency: undefined,
};

describe('deploy revision', () => {
  it('is the same for omitted settings and their defaults, whatever the key order', () => {
    const renewed: ContainerSpec = {
      concurrency: DEFAULT_CONCURRENCY,
      healthPath: DEFAULT_HEALTH_PATH,
      port: DEFAULT_PORT,
      idleTimeoutS: 300,
      maxInstances: 2,
      minInstances: 1,
      gpu: 'rtx4090',
      registryAuth: { password: 'pw', username: 'me', registry: 'registry.example.com' },
      image: 'registry.example.com/me/model:1',
      serviceId: 'svc',
    };
    expect(revisionOf(renewed)).toBe(revisionOf(saved));
  });

  it('changes with any setting that redeploys', () => {
    for (const change of [{ image: 'x:2' }, { port: 9000 }, { healthPath: '/health' }, { concurrency: 4 }, { minInstances: 2 }]) {
      expect(revisionOf({ ...saved, ...change }), JSON.stringify(change)).not.toBe(revisionOf(saved));
    }
    expect(revisionOf({ ...saved, registryAuth: { ...saved.registryAuth!, password: 'new' } })).not.toBe(revisionOf(saved));
  });

  it('changes when snapshots are turned off; true is the default (docs/deploy.md, "Snapshot cold starts")', () => {
    expect(revisionOf({ ...saved, snapshot: false })).not.toBe(revisionOf(saved));
    expect(revisionOf({ ...saved, snapshot: true })).toBe(revisionOf(saved));
  });

  it('follows the secrets a deploy recorded, not the secrets as they are (docs/publishing.md, "Secrets")', () => {
    // A secret set without a deploy changes the opened env the renewal reads: no redeploy.
    expect(revisionOf({ ...saved, env: { GREETING: 'Bonjour' } })).toBe(revisionOf(saved));
    // A deploy (by any process) records their fingerprint: the holder's renewal applies it.
    expect(revisionOf({ ...saved, secretsRevision: 'a1' })).not.toBe(revisionOf(saved));
    expect(revisionOf({ ...saved, secretsRevision: 'a1' })).not.toBe(revisionOf({ ...saved, secretsRevision: 'b2' }));
  });
});
