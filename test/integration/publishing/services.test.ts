import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResult, ManagedService } from '../../../src/api';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { Jimp } from 'jimp';
import { SKETCH_PNG, startSketchService, type SketchService } from '../../fixtures/sketchService';
import { fastApiDocument } from '../../fixtures/fastapi-openapi';
import { apiClients, confirmedUser, PUBLISHER, rawApi, signedIn } from '../helpers';
// reaches inside: stores a failed deployment as the runner does, on a server without an engine
import { updateHostingState } from '../../../reference-app/server/hosting/queries';

// Publishing through the client of src/api against a server of its own (docs/publishing.md):
// create, change, delete, plan limits, ownership, field errors, OpenAPI import and health checks
// against a real local service (test/fixtures/sketchService.ts).

let server: PlatformTestServer;
let sketch: SketchService;
beforeAll(async () => {
  [server, sketch] = await Promise.all([startPlatformServer(), startSketchService()]);
});
afterAll(async () => {
  await Promise.all([server?.close(), sketch?.close()]);
});

/** The data of a successful call; a failure fails the test with the server's message. */
function dataOf<T>(result: ApiResult<T>): T {
  if (!result.ok) throw new Error(`${result.status} ${result.error}`);
  return result.data;
}

async function user(credentials?: { email: string; password: string }) {
  const { session } = await signedIn(server, credentials ?? (await confirmedUser(server, 'publish')));
  const clients = apiClients(server, session.access_token);
  return { token: session.access_token, id: session.user.id, services: clients.services, catalogue: clients.modelManagement };
}

const created = (result: { ok: boolean; status: number; data?: ManagedService }) => {
  expect(result).toMatchObject({ ok: true, status: 201 });
  return result.data!;
};

describe('service management', () => {
  it('creates a public service that the catalogue lists at once, and reads it back as its owner', async () => {
    const owner = await user();
    const service = created(
      await owner.services.create({
        display_name: 'Sketch Artist',
        model_desc: '<p>Draws <b>sketches</b></p><script>alert(1)</script><img src=x onerror=alert(1)>',
        model_category: ['text2img'],
        used_models: ['sketch-v1'],
        visibility: 'public',
        runtime: { type: 'http', base_url: sketch.url, headers: { 'X-Service-Secret': 's3cret' } },
      }),
    );
    expect(service.id).toMatch(/^sketch-artist-[0-9a-f]{6}$/);
    expect(service).toMatchObject({
      display_name: 'Sketch Artist',
      model_desc: '<p>Draws <b>sketches</b></p>',
      visibility: 'public',
      status: 'active',
      runtime: { type: 'http', base_url: sketch.url, header_names: ['X-Service-Secret'] },
    });
    expect(JSON.stringify(service)).not.toContain('s3cret');
    const listed = await owner.catalogue.modelDescriptors();
    expect(listed.ok && listed.data.some((d) => d.id === service.id && d.display_name === 'Sketch Artist')).toBe(true);
    expect(await owner.services.list()).toMatchObject({ ok: true, data: [{ id: service.id }] });
  });

  it('changes fields, keeps the secret header unless replaced, pauses, and deletes (gone from the catalogue)', async () => {
    const owner = await user();
    const service = created(
      await owner.services.create({
        display_name: 'Echo',
        visibility: 'public',
        runtime: { type: 'http', base_url: sketch.url, headers: { 'X-Key': 'k' } },
      }),
    );
    const changed = await owner.services.update(service.id, {
      model_desc: 'Now with <i>echo</i>',
      status: 'paused',
      runtime: { type: 'http', base_url: sketch.url },
    });
    expect(changed).toMatchObject({
      ok: true,
      data: { model_desc: 'Now with <i>echo</i>', status: 'paused', runtime: { header_names: ['X-Key'] } },
    });
    expect(await owner.services.remove(service.id)).toMatchObject({ ok: true, data: { id: service.id } });
    expect(await owner.services.get(service.id)).toMatchObject({ ok: false, status: 404, error: `No service ${service.id}` });
    const listed = await owner.catalogue.modelDescriptors();
    expect(listed.ok && listed.data.some((d) => d.id === service.id)).toBe(false);
  });

  it('limits private services by plan: Free none (402 with the billing link), Pro five', async () => {
    const free = await user();
    const refused = await free.services.create({ display_name: 'Secret', visibility: 'private' });
    expect(refused).toMatchObject({ ok: false, status: 402 });
    expect(!refused.ok && refused.error).toBe(
      `Your free plan allows no private services (you have 0). Make the service public, or upgrade your plan at ${server.url}/account/billing.`,
    );
    const open = created(await free.services.create({ display_name: 'Open', visibility: 'public' }));
    expect(await free.services.update(open.id, { visibility: 'private' })).toMatchObject({ ok: false, status: 402 });
    // The seeded publisher has an active Pro plan (5 private services).
    const publisher = await user(PUBLISHER);
    const own = await publisher.services.list();
    const privateCount = own.ok ? own.data.filter((s) => s.visibility === 'private').length : 99;
    for (let i = privateCount; i < 5; i++) {
      expect(await publisher.services.create({ display_name: `Private ${i}`, visibility: 'private' })).toMatchObject({
        ok: true,
        status: 201,
      });
    }
    const over = await publisher.services.create({ display_name: 'One too many', visibility: 'private' });
    expect(over).toMatchObject({ ok: false, status: 402 });
    expect(!over.ok && over.error).toMatch(/^Your pro plan allows 5 private services \(you have [5-9]\d*\)/);
  });

  it('hides other people’s private services (404) and refuses changes to their public ones (403)', async () => {
    const [owner, stranger] = await Promise.all([user(), user()]);
    const service = created(await owner.services.create({ display_name: 'Mine', visibility: 'public' }));
    expect(await stranger.services.update(service.id, { display_name: 'Theirs' })).toMatchObject({
      ok: false,
      status: 403,
      error: `Only the owner can change the service ${service.id}`,
    });
    expect(await stranger.services.remove(service.id)).toMatchObject({ ok: false, status: 403 });
    const publisher = await user(PUBLISHER);
    const hidden = dataOf(await publisher.services.list()).find((s) => s.visibility === 'private')!;
    expect(await stranger.services.get(hidden.id)).toMatchObject({ ok: false, status: 404, error: `No service ${hidden.id}` });
  });

  it('answers 422 with one entry per bad field', async () => {
    const owner = await user();
    const result = await owner.services.create({
      display_name: ' ',
      model_category: ['text2img', 'no-such-category'],
      endpoints: [
        { method: 'POST', path: 'no-slash', parameters: [] },
        {
          method: 'POST',
          path: '/ok',
          parameters: [
            { name: 'n', type: 'integer', required: false, minimum: 5, maximum: 1 },
            { name: 'n', type: 'string', required: false },
          ],
        },
      ],
      runtime: { type: 'http', base_url: 'ftp://example.com' },
    });
    expect(result).toMatchObject({ ok: false, status: 422 });
    const names = !result.ok ? result.fieldErrors?.map((e) => e.name) : [];
    expect(names).toEqual(
      expect.arrayContaining([
        'display_name',
        'endpoints.0.path',
        'endpoints.1.parameters.0.maximum',
        'endpoints.1.parameters.1.name',
        'runtime.base_url',
      ]),
    );
    const categories = await owner.services.create({ display_name: 'Cats', visibility: 'public', model_category: ['no-such-category'] });
    expect(categories).toMatchObject({
      ok: false,
      status: 422,
      fieldErrors: [{ name: 'model_category.0', rule: 'exists', message: 'unknown category "no-such-category"' }],
    });
  });

  it('imports endpoints from the service’s own /openapi.json, a URL or a pasted document, listing what it skipped', async () => {
    const owner = await user();
    const service = created(
      await owner.services.create({ display_name: 'Importer', visibility: 'public', runtime: { type: 'http', base_url: sketch.url } }),
    );
    const fromService = await owner.services.importOpenApi(service.id);
    expect(fromService).toMatchObject({
      ok: true,
      data: { endpoints: [{ path: '/generate' }, { path: '/upscale' }, { path: '/health' }] },
    });
    expect(dataOf(fromService).unsupported).toHaveLength(4);
    const pasted = await owner.services.importOpenApi(service.id, { document: fastApiDocument });
    expect(dataOf(pasted).endpoints).toEqual(dataOf(fromService).endpoints);
    expect(await owner.services.importOpenApi(service.id, { url: `${sketch.url}/missing.json` })).toMatchObject({
      ok: false,
      status: 422,
      error: `url: ${sketch.url}/missing.json answered 404`,
    });
    expect(await owner.services.importOpenApi(service.id, { document: { swagger: '2.0', paths: {} } })).toMatchObject({
      ok: false,
      status: 422,
    });
    // Importing saves nothing: the editor decides.
    expect(dataOf(await owner.services.get(service.id)).endpoints).toEqual([]);
  });

  it('imports for a service not created yet (the new-service editor), from a URL or a pasted document', async () => {
    const owner = await user();
    const fromUrl = await owner.services.importOpenApi(null, { url: `${sketch.url}/openapi.json` });
    expect(dataOf(fromUrl).endpoints.map((e) => e.path)).toEqual(['/generate', '/upscale', '/health']);
    expect(dataOf(await owner.services.importOpenApi(null, { document: fastApiDocument })).endpoints).toEqual(dataOf(fromUrl).endpoints);
    // Without a saved service there is no base URL to fall back on.
    expect(await owner.services.importOpenApi(null, {})).toMatchObject({ ok: false, status: 422, error: expect.stringMatching(/^url: /) });
  });

  it('checks health with latency, reports an unreachable service, and shows a container deployment as waiting', async () => {
    const owner = await user();
    const up = created(
      await owner.services.create({
        display_name: 'Up',
        visibility: 'public',
        endpoints: [{ method: 'GET', path: '/health', parameters: [] }],
        runtime: { type: 'http', base_url: sketch.url },
      }),
    );
    // The health path (issue 39): by default the OpenAPI document, not GET / (which the sketch
    // service, as most APIs, answers 404) nor a guess from the endpoints.
    expect(up.runtime).toMatchObject({ type: 'http', health_path: '/openapi.json' });
    const health = await owner.services.healthCheck(up.id);
    expect(health).toMatchObject({ ok: true, data: { status: 'ok', detail: 'GET /openapi.json answered 200' } });
    expect(dataOf(health).latency_ms).toEqual(expect.any(Number));
    expect(dataOf(await owner.services.get(up.id)).health).toEqual(dataOf(health));
    // Saving with the runtime unchanged (as the editor does for a description edit) keeps the last
    // check, which the hosting list shows; a changed runtime forgets it.
    const renamed = await owner.services.update(up.id, { display_name: 'Up again', runtime: { type: 'http', base_url: sketch.url } });
    expect(dataOf(renamed).health).toEqual(dataOf(health));
    // The owner's own path, and one the service does not answer.
    expect(await owner.services.update(up.id, { runtime: { type: 'http', base_url: sketch.url, health_path: '/health' } })).toMatchObject({
      ok: true,
      data: { runtime: { health_path: '/health' } },
    });
    expect(await owner.services.healthCheck(up.id)).toMatchObject({ ok: true, data: { status: 'ok', detail: 'GET /health answered 200' } });
    await owner.services.update(up.id, { runtime: { type: 'http', base_url: sketch.url, health_path: '/nowhere' } });
    expect(await owner.services.healthCheck(up.id)).toMatchObject({
      ok: true,
      data: { status: 'failing', detail: 'GET /nowhere answered 404' },
    });
    expect(await owner.services.update(up.id, { runtime: { type: 'http', base_url: sketch.url, health_path: 'health' } })).toMatchObject({
      ok: false,
      status: 422,
      error: 'runtime.health_path: must be a path starting with /, such as /openapi.json',
    });

    const gone = await startSketchService();
    await gone.close();
    const down = created(
      await owner.services.create({ display_name: 'Down', visibility: 'public', runtime: { type: 'http', base_url: gone.url } }),
    );
    expect(await owner.services.healthCheck(down.id)).toMatchObject({ ok: true, data: { status: 'unreachable', latency_ms: null } });

    const gpu = dataOf(await owner.catalogue.pricingServers())[0]!.id;
    const container = created(
      await owner.services.create({
        display_name: 'Boxed',
        visibility: 'public',
        runtime: { type: 'container', image: 'docker.io/me/sketch:1.0', gpu, min_instances: 0, max_instances: 2, idle_timeout_s: 300 },
      }),
    );
    expect(container.runtime).toMatchObject({ type: 'container', deployment_status: 'waiting_for_runner', gpu });
    expect(await owner.services.healthCheck(container.id)).toMatchObject({ ok: true, data: { status: 'waiting_for_runner' } });
    const hosting = await rawApi(server, 'GET', `/v1/model_management/model_hosting_information?model_id=${container.id}`, {
      token: owner.token,
    });
    expect(hosting).toMatchObject({
      status: 200,
      json: { status: 'waiting_for_runner', gpu, min_instances: 0, max_instances: 2, endpoint_url: `${server.url}/v1/jobs` },
    });
  });

  it('shows a failed deployment’s reason and log lines to its owner only (issue 35)', async () => {
    const [owner, other] = await Promise.all([user(), user()]);
    const gpu = dataOf(await owner.catalogue.pricingServers())[0]!.id;
    const container = created(
      await owner.services.create({
        display_name: 'Failing box',
        visibility: 'public',
        runtime: { type: 'container', image: 'docker.io/me/failing:1.0', gpu, min_instances: 0, max_instances: 1, idle_timeout_s: 300 },
      }),
    );
    // What the runner stores when the deployment fails (hosting/containerHosting.ts).
    await updateHostingState(server.platform.database.db, container.id, {
      status: 'failed',
      message: 'The health check failed for 60 s. Last log lines:\nDATABASE_PASSWORD=hunter2',
      instances: 0,
      base_url: null,
    });
    const read = (token: string) =>
      rawApi(server, 'GET', `/v1/model_management/model_hosting_information?model_id=${container.id}`, { token });
    expect((await read(owner.token)).json).toMatchObject({ status: 'failed', message: expect.stringContaining('hunter2') });
    const seen = await read(other.token);
    expect(seen).toMatchObject({ status: 200, json: { status: 'failed' } });
    expect(JSON.stringify(seen.json)).not.toContain('hunter2');
  });

  it('runs a published service at its own URL through the job API, pays its owner, and refuses runs while paused', async () => {
    const [owner, caller] = await Promise.all([user(), user()]);
    const service = created(
      await owner.services.create({
        display_name: 'Echo run',
        visibility: 'public',
        endpoints: [
          { method: 'POST', path: '/echo', parameters: [{ name: 'text', type: 'string', required: true }], output: { type: 'json' } },
        ],
        runtime: { type: 'http', base_url: sketch.url, headers: { 'X-Service-Secret': 'run-secret' } },
      }),
    );
    const request = {
      token: caller.token,
      body: { service_id: service.id, endpoint: '/echo', input: { text: 'hi' } },
      headers: { Prefer: 'wait=30' },
    };
    const run = await rawApi(server, 'POST', '/v1/jobs', request);
    expect(run).toMatchObject({ status: 201, json: { status: 'FINISHED', runtime: 'http', result: { echo: { text: 'hi' } } } });
    expect(sketch.received.at(-1)!.headers['x-service-secret']).toBe('run-secret');
    // The owner's earnings are the ledger's earning rows of this service's runs (a share that
    // rounds to 0 credits writes none).
    const jobId = String((run.json as Record<string, unknown>).job_id);
    const rows = await server.platform.database.db
      .selectFrom('credit_ledger')
      .select('amount')
      .where('reference', '=', `job:${jobId}:earning`)
      .where('user_id', '=', owner.id)
      .execute();
    expect(dataOf(await owner.services.get(service.id)).earnings_credits).toBeCloseTo(
      rows.reduce((sum, r) => sum + Number(r.amount), 0),
      6,
    );

    expect(await owner.services.update(service.id, { status: 'paused' })).toMatchObject({ ok: true });
    expect(await rawApi(server, 'POST', '/v1/jobs', request)).toMatchObject({
      status: 409,
      json: { detail: `${service.id} is paused by its owner and does not accept runs` },
    });
    expect(await owner.services.remove(service.id)).toMatchObject({ ok: true });
    expect(await rawApi(server, 'POST', '/v1/jobs', request)).toMatchObject({ status: 404 });
  });

  it('takes a card image: crops and scales it to 660 × 372, serves it, and refuses other types, sizes and broken files', async () => {
    const owner = await user();
    const service = created(await owner.services.create({ display_name: 'Pictured', visibility: 'public' }));
    const png = new Blob([SKETCH_PNG], { type: 'image/png' });
    const withImage = dataOf(await owner.services.uploadImage(service.id, png));
    expect(withImage.display_img_url).toMatch(/\/media\/files\//);
    const served = await fetch(new URL(withImage.display_img_url!, server.url));
    expect(served.status).toBe(200);
    const card = await Jimp.read(Buffer.from(await served.arrayBuffer()));
    expect([card.width, card.height]).toEqual([660, 372]);

    expect(await owner.services.uploadImage(service.id, new Blob(['hello'], { type: 'text/plain' }))).toMatchObject({
      ok: false,
      status: 415,
    });
    expect(await owner.services.uploadImage(service.id, new Blob(['not a png'], { type: 'image/png' }))).toMatchObject({
      ok: false,
      status: 422,
      error: expect.stringMatching(/^file: /),
    });
    const huge = new Blob([new Uint8Array(5 * 1024 * 1024 + 1)], { type: 'image/png' });
    expect(await owner.services.uploadImage(service.id, huge)).toMatchObject({ ok: false, status: 413 });
    // A refused upload leaves the stored image as it was.
    expect(dataOf(await owner.services.get(service.id)).display_img_url).toBe(withImage.display_img_url);
  });

  it('refuses anonymous callers', async () => {
    expect(await rawApi(server, 'GET', '/v1/model_management/services')).toMatchObject({ status: 401 });
  });
});
