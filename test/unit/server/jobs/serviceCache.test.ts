import { describe, expect, it } from 'vitest';
import { ServiceCache } from '../../../../reference-app/server/jobs/serviceCache';

// The service cache of the worker and of creates (jobs/serviceCache.ts): a job never waits for the reload of a
// service read recently, and a cleared or too old entry is waited for.

/** A loader whose reads stay pending until released, counting them. */
function gatedLoader() {
  const pending: Array<{ key: string; resolve: (value: string) => void; reject: (error: Error) => void }> = [];
  let version = 0;
  const load = (key: string) =>
    new Promise<string>((resolve, reject) => {
      pending.push({ key, resolve, reject });
    });
  const release = () => pending.shift()!.resolve(`v${++version}`);
  const fail = () => pending.shift()!.reject(new Error('database away'));
  return { load, release, fail, pending };
}

const settled = async <T>(promise: Promise<T>) => {
  let state: 'pending' | T = 'pending';
  void promise.then((value) => (state = value));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return state;
};

describe('ServiceCache', () => {
  it('answers a stale service at once while one reload runs beside it, and the reloaded one afterwards', async () => {
    let now = 0;
    const loader = gatedLoader();
    const cache = new ServiceCache(loader.load, 1000, 5000, () => now);
    const first = cache.get('svc');
    loader.release();
    expect(await first).toBe('v1');

    now = 1500; // past fresh, within stale: no waiting for the database
    expect(await settled(cache.get('svc'))).toBe('v1');
    expect(await settled(cache.get('svc'))).toBe('v1');
    expect(loader.pending).toHaveLength(1); // one reload for both
    loader.release();
    await Promise.resolve();
    expect(await settled(cache.get('svc'))).toBe('v2');
    expect(loader.pending).toHaveLength(0);
  });

  it('waits for the read when the entry is too old, was cleared, or was never read', async () => {
    let now = 0;
    const loader = gatedLoader();
    const cache = new ServiceCache(loader.load, 1000, 5000, () => now);
    expect(await settled(cache.get('svc'))).toBe('pending');
    loader.release();

    now = 6000; // past the stale bound
    expect(await settled(cache.get('svc'))).toBe('pending');
    loader.release();
    expect(await cache.get('svc')).toBe('v2');

    cache.clear(); // a catalogue write was announced
    expect(await settled(cache.get('svc'))).toBe('pending');
    loader.release();
  });

  it('keeps the stale service when a reload fails, and reads again for the next job', async () => {
    let now = 0;
    const loader = gatedLoader();
    const cache = new ServiceCache(loader.load, 1000, 5000, () => now);
    const first = cache.get('svc');
    loader.release();
    await first;
    now = 2000;
    expect(await settled(cache.get('svc'))).toBe('v1');
    loader.fail();
    await Promise.resolve();
    expect(await settled(cache.get('svc'))).toBe('v1');
    expect(loader.pending).toHaveLength(1); // tried again
    loader.release();
  });

  it('holds a bounded number of keys: reads of ever new ids (any id a create names) start it over', async () => {
    const reads: string[] = [];
    const cache = new ServiceCache(
      (key) => (reads.push(key), Promise.resolve(key)),
      1000,
      5000,
      () => 0,
    );
    for (let i = 0; i < 1000; i++) await cache.get(`missing-${i}`);
    await cache.get('missing-0'); // still held: no read
    expect(reads).toHaveLength(1000);
    await cache.get('one-more'); // the 1001st key starts over
    await cache.get('missing-1');
    expect(reads.slice(-2)).toEqual(['one-more', 'missing-1']);
  });
});
