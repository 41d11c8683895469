import { describe, expect, it } from 'vitest';
// reaches inside: stores a rollout's outcome as the runner does, on a server without an engine
import { updateHostingState } from '../../../reference-app/server/hosting/queries';
import { confirmedUser, PUBLISHER, PUBLISHER_ID, rawApi, signedIn } from '../helpers';
import { recordingPlatform } from '../recordingPlatform';

// A container service's versions and rollback (docs/publishing.md, "Versions and rollback") on a
// real server, without an engine: the fleet seam (hosting/fleet.ts) records what the platform
// deploys, and a rollout's outcome is stored as the runner stores it (updateHostingState, as
// hosting/containerHosting.ts does). The rollback through the real engine, whose first answer
// comes back, is test/integration/hosting/rollback.test.ts.

const platform = recordingPlatform();

const digestA = `sha256:${'a1'.repeat(32)}`;
const digestB = `sha256:${'a2'.repeat(32)}`;
const digestC = `sha256:${'b3'.repeat(32)}`;
const imageA = `docker.io/me/echo@${digestA}`;
const imageB = `docker.io/me/echo@${digestB}`;
const imageC = `docker.io/me/echo@${digestC}`;

interface Version {
  id: string;
  image: string;
  digest: string | null;
  kind: string;
  deployed_at: string;
  deployed_by: { id: string; email: string | null } | null;
  outcome: string;
  outcome_message: string | null;
  current: boolean;
}

const runtime = (image: string) => ({
  type: 'container',
  image,
  gpu: platform.gpu,
  min_instances: 0,
  max_instances: 2,
  idle_timeout_s: 120,
  concurrency: 3,
  resources: { cpu: 0.5, memory_mb: 512 },
  // Opted out of snapshots: a rollback keeps it out (docs/deploy.md, "Snapshot cold starts").
  snapshot: false,
});

async function create(name: string, image: string) {
  const created = await rawApi(platform.server, 'POST', '/v1/model_management/services', {
    token: platform.token,
    body: { display_name: name, visibility: 'public', runtime: runtime(image) },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return String(created.json.id);
}
const save = async (id: string, image: string) => {
  const saved = await rawApi(platform.server, 'PATCH', `/v1/model_management/services/${id}`, {
    token: platform.token,
    body: { runtime: runtime(image) },
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
};
/** What the runner stores when `image`'s rollout reaches `status`. */
const rolled = (id: string, image: string, status: string, message = status === 'succeeded' ? 'Serving' : 'No room') =>
  updateHostingState(platform.server.platform.database.db, id, {
    status: 'running',
    message,
    instances: 1,
    base_url: null,
    rollout_image: image,
    rollout_status: status,
    rollout_message: message,
  });
const versions = async (id: string, query = '') => {
  const answer = await rawApi(platform.server, 'GET', `/v1/model_management/services/${id}/versions${query}`, { token: platform.token });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json as unknown as { versions: Version[]; next_cursor: string | null };
};
const rollback = (id: string, body: Record<string, unknown> = {}, as = platform.token) =>
  rawApi(platform.server, 'POST', `/v1/model_management/services/${id}/rollback`, { token: as, body });

describe('a container service’s versions', () => {
  it('records every deploy (digest, time, who) with its rollout’s outcome, newest first, the serving one marked', async () => {
    const before = Date.now();
    const id = await create('Versions echo', imageA);
    await rolled(id, imageA, 'succeeded');
    await save(id, imageB);
    // Saving the same image again is no new version.
    await save(id, imageB);

    let page = await versions(id);
    expect(page.next_cursor).toBeNull();
    expect(page.versions.map((v) => [v.digest, v.kind, v.outcome, v.current])).toEqual([
      [digestB, 'deploy', 'pending', false],
      [digestA, 'deploy', 'succeeded', true],
    ]);
    for (const v of page.versions) {
      expect(v.deployed_by).toEqual({ id: PUBLISHER_ID, email: PUBLISHER.email });
      expect(Date.parse(v.deployed_at)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(page.versions[0]!.image).toBe(imageB);

    // B's rollout is refused: A still serves, and stays current.
    await rolled(id, imageB, 'in_progress', 'Rolling');
    expect((await versions(id)).versions[0]).toMatchObject({ outcome: 'in_progress', current: false });
    await rolled(id, imageB, 'failed', 'The update did not start, the previous version still runs: No room');
    page = await versions(id);
    expect(page.versions[0]).toMatchObject({ outcome: 'failed', outcome_message: expect.stringContaining('No room'), current: false });
    expect(page.versions[1]).toMatchObject({ digest: digestA, current: true });

    // A third, saved before the second's rollout ended: the second is superseded.
    await rolled(id, imageB, 'in_progress', 'Rolling');
    await save(id, imageC);
    await rolled(id, imageC, 'succeeded');
    page = await versions(id);
    expect(page.versions.map((v) => [v.digest, v.outcome, v.current])).toEqual([
      [digestC, 'succeeded', true],
      [digestB, 'superseded', false],
      [digestA, 'succeeded', false],
    ]);

    // Paginated like the other lists: a cursor to the next page, then none.
    const first = await versions(id, '?limit=2');
    expect(first.versions.map((v) => v.digest)).toEqual([digestC, digestB]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await versions(id, `?limit=2&cursor=${first.next_cursor}`);
    expect(second).toEqual({ versions: [expect.objectContaining({ digest: digestA, current: false })], next_cursor: null });
    const bad = await rawApi(platform.server, 'GET', `/v1/model_management/services/${id}/versions?cursor=nope`, { token: platform.token });
    expect(bad.status).toBe(422);
    expect(String(bad.json.detail)).toContain('cursor');
  });

  it('are the owner’s only', async () => {
    const id = await create('Versions private echo', imageA);
    const other = (await signedIn(platform.server, await confirmedUser(platform.server, 'versions-other'))).session.access_token;
    const seen = await rawApi(platform.server, 'GET', `/v1/model_management/services/${id}/versions`, { token: other });
    expect(seen.status).toBe(403);
    expect((await rollback(id, {}, other)).status).toBe(403);
    expect(
      (await rawApi(platform.server, 'GET', '/v1/model_management/services/no-such-service/versions', { token: platform.token })).status,
    ).toBe(404);
  });
});

describe('a rollback', () => {
  it('redeploys the version that served before, with the service’s settings, as a new version', async () => {
    const id = await create('Rollback echo', imageA);
    await rolled(id, imageA, 'succeeded');
    await save(id, imageB);
    await rolled(id, imageB, 'succeeded');
    platform.deployed.length = 0;

    const answer = await rollback(id);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json).toMatchObject({ image: imageA, digest: digestA, kind: 'rollback', outcome: 'pending', current: false });
    // The same deploy as a save: the earlier image with the service's own settings.
    expect(platform.deployed).toHaveLength(1);
    expect(platform.deployed[0]).toMatchObject({
      serviceId: id,
      image: imageA,
      gpu: platform.gpu,
      maxInstances: 2,
      idleTimeoutS: 120,
      concurrency: 3,
      resources: { cpu: 0.5, memoryMb: 512, gpu: 0 },
      snapshot: false,
    });
    const service = await rawApi(platform.server, 'GET', `/v1/model_management/services/${id}`, { token: platform.token });
    expect(service.json).toMatchObject({ runtime: { image: imageA } });
    const hosting = await rawApi(platform.server, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, {
      token: platform.token,
    });
    expect(hosting.json).toMatchObject({ rollout: { image: imageA, status: 'pending' } });

    await rolled(id, imageA, 'succeeded');
    const page = await versions(id);
    expect(page.versions.map((v) => [v.digest, v.kind, v.outcome, v.current])).toEqual([
      [digestA, 'rollback', 'succeeded', true],
      [digestB, 'deploy', 'succeeded', false],
      [digestA, 'deploy', 'succeeded', false],
    ]);

    // By a digest's first hex digits (unambiguous), forwards again.
    const forward = await rollback(id, { digest: 'a2a2a2' });
    expect(forward.status, JSON.stringify(forward.json)).toBe(200);
    expect(forward.json).toMatchObject({ image: imageB, kind: 'rollback' });
  });

  it('refuses a digest that is none of the versions, an ambiguous or malformed one, and what would change nothing', async () => {
    const id = await create('Rollback refusals', imageA);
    // One version only: nothing earlier to go to.
    await rolled(id, imageA, 'succeeded');
    let answer = await rollback(id);
    expect(answer.status).toBe(422);
    expect(String(answer.json.detail)).toContain('has no earlier version that served');

    await save(id, imageB);
    await rolled(id, imageB, 'succeeded');
    answer = await rollback(id, { digest: 'ffff' });
    expect(answer.status).toBe(404);
    expect(String(answer.json.detail)).toContain('No version of the service');
    answer = await rollback(id, { digest: 'a' });
    expect(answer.status).toBe(422);
    expect(String(answer.json.detail)).toContain('is not a digest');
    // a1… and a2… both start with "a": ambiguous.
    answer = await rollback(id, { digest: 'sha256:a' });
    expect(answer.status).toBe(422);
    answer = await rollback(id, { digest: 'a1a1' });
    expect(answer.status).toBe(200);
    await rolled(id, imageA, 'succeeded');
    answer = await rollback(id, { digest: digestA });
    expect(answer.status).toBe(422);
    expect(String(answer.json.detail)).toContain("already the service's deployed version");
    // Another account's namespace rule, the quota, the registry: the same refusals as a save
    // (publishedServices.ts, checkReferences), since a rollback is a save.
  });

  it('is refused for a service that runs no container', async () => {
    const created = await rawApi(platform.server, 'POST', '/v1/model_management/services', {
      token: platform.token,
      body: { display_name: 'Versions URL service', visibility: 'public', runtime: { type: 'http', base_url: 'https://example.com' } },
    });
    expect(created.status).toBe(201);
    const answer = await rollback(String(created.json.id));
    expect(answer.status).toBe(422);
    expect(String(answer.json.detail)).toContain('does not run a container image');
  });
});
