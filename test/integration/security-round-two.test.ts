import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../reference-app/server/testing';
import { checkServiceUrl, isPrivateAddress, urlProblem, PLATFORM_REQUEST_HEADER, decodeImage } from '../../reference-app/server/runtimes';
import { webhookUrlProblem } from '../../reference-app/server/jobs';
import { jsonDepth, MAX_JSON_DEPTH } from '../../reference-app/server/http';
import { Jimp } from 'jimp';
import { readImageHeader, decodeRgba, ImageRefusedError, confineFileReferences } from '../../reference-app/server/media';
import { bmpHeader, gifBomb, jpegHeader, pngBomb, tiffHeader, webpHeader } from '../fixtures/imageBombs';
import { importOpenApi, MAX_IMPORT_WORK } from '../../reference-app/server/publishing';
import { sql } from 'kysely';
import { confirmedUser, rawApi, rawGet, signedIn, subscribe } from './helpers';
import { runner, testRuntimes, TEXT2IMG } from './jobs/fixtures';

// docs/security.md, "Service URLs" and "Service addresses": the one URL policy for every URL the
// platform calls (special-purpose ranges, IPv4 carried inside IPv6, the platform's own origin in
// every mode), the dev mailbox refusing the platform's own requests, and unique service names.

describe('the URL policy', () => {
  it('refuses every special-purpose range, and IPv4 addresses carried inside IPv6', () => {
    const refused = [
      '198.18.0.1', // benchmarking
      '198.19.255.255',
      '224.0.0.1', // multicast
      '239.255.255.250',
      '240.0.0.1', // reserved
      '255.255.255.255',
      '192.0.2.10', // TEST-NET-1
      '198.51.100.7', // TEST-NET-2
      '203.0.113.9', // TEST-NET-3
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe', // 169.254.169.254 (cloud metadata)
      '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
      '64:ff9b::a00:1', // NAT64 of 10.0.0.1
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:c0a8:101::', // 6to4 of 192.168.1.1
      '::7f00:1', // IPv4-compatible 127.0.0.1
      '2001:db8::1', // documentation
      '2001::1', // Teredo
    ];
    for (const address of refused) expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2606:4700:4700::1111']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('refuses webhooks to a mapped loopback address in production, at creation as at delivery', async () => {
    for (const url of ['http://[::ffff:127.0.0.1]:8080/x', 'http://[::ffff:7f00:1]:8080/x', 'http://[64:ff9b::7f00:1]/x']) {
      expect(await webhookUrlProblem(url, false, 'https://platform.example'), url).toMatch(/private address/);
    }
    await expect(checkServiceUrl(new URL('http://[::ffff:7f00:1]:8080/x'), { allowPrivateAddresses: false }, 'webhook')).rejects.toThrow(
      /private address/,
    );
  });

  it("refuses the platform's own origin and port in every mode, whatever form the loopback address takes", async () => {
    const own = { origins: ['http://localhost:3999'], port: 3999 };
    for (const allowPrivateAddresses of [true, false]) {
      for (const url of [
        'http://localhost:3999/dev/mailbox.json',
        'http://127.0.0.1:3999/dev/mailbox.json',
        'http://2130706433:3999/',
        'http://0x7f.1:3999/',
        'http://[::1]:3999/',
        'http://[::ffff:127.0.0.1]:3999/',
        'http://0.0.0.0:3999/',
      ]) {
        expect(await urlProblem(url, { allowPrivateAddresses, own }, 'service URL'), url).toMatch(/platform's own address/);
      }
    }
    expect(await urlProblem('http://127.0.0.1:4000/', { allowPrivateAddresses: true, own }, 'service URL')).toBeUndefined();
  });
});

describe('image bombs', () => {
  const bombs = {
    png: pngBomb(10_000, 10_000),
    gif: gifBomb(16_000, 16_000),
    jpeg: jpegHeader(8000, 8000),
    bmp: bmpHeader(9000, 9000),
    tiff: tiffHeader(7000, 7000),
    webp: webpHeader(6000, 6000),
  };

  it('reads the declared size of every format from the header', () => {
    expect(bombs.png.length).toBeLessThan(13_000);
    expect(bombs.gif.length).toBe(35);
    for (const [format, bytes] of Object.entries(bombs)) expect(readImageHeader(bytes)?.format, format).toBe(format);
    expect(readImageHeader(bombs.png)).toEqual({ format: 'png', width: 10_000, height: 10_000 });
    expect(readImageHeader(bombs.gif)).toEqual({ format: 'gif', width: 16_000, height: 16_000 });
  });

  it('refuses each bomb as too large before decoding (a decoder would have called it corrupt or run out of memory)', async () => {
    for (const [format, bytes] of Object.entries(bombs)) {
      const refused = await decodeRgba(bytes).catch((error: unknown) => error);
      expect(refused, format).toBeInstanceOf(ImageRefusedError);
      expect((refused as ImageRefusedError).reason, format).toBe('too_large');
      expect((refused as Error).message, format).toMatch(/limit for .* images is (16|4) megapixels/);
    }
    await expect(decodeImage('image', bombs.jpeg, 'image/jpeg')).rejects.toThrow(/^image: the image is 8000×8000 pixels/);
  });

  it('still decodes real images of every kind, off the event loop', async () => {
    const image = new Jimp({ width: 40, height: 30, color: 0xff0000ff });
    for (const mime of ['image/png', 'image/jpeg', 'image/gif', 'image/bmp'] as const) {
      const bytes = await image.getBuffer(mime);
      const decoded = await decodeImage('image', bytes, mime);
      expect([decoded.width, decoded.height], mime).toEqual([40, 30]);
    }
  });
});

/** An OpenAPI document whose schemas L0…L{levels} each point `fanOut` times at the next level. */
function fanOutDocument(levels: number, fanOut: number, wrap: (level0: { $ref: string }) => Record<string, unknown>) {
  const schemas: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) {
    const next = { $ref: `#/components/schemas/L${level + 1}` };
    schemas[`L${level}`] = { type: 'object', properties: Object.fromEntries(Array.from({ length: fanOut }, (_, i) => [`p${i}`, next])) };
  }
  schemas[`L${levels}`] = { type: 'string' };
  return {
    openapi: '3.1.0',
    components: { schemas },
    paths: { '/run': { post: { parameters: [{ name: 'p', in: 'query', schema: wrap({ $ref: '#/components/schemas/L0' }) }] } } },
  };
}

/** `paths` operations whose JSON bodies all point at one schema of `properties` properties. */
export function sharedBodyDocument(paths: number, properties: number) {
  const big = {
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: properties }, (_, i) => [`f${i}`, { type: 'string' }])),
  };
  const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Big' } } } };
  return {
    openapi: '3.1.0',
    components: { schemas: { Big: big } },
    paths: Object.fromEntries(Array.from({ length: paths }, (_, i) => [`/op${i}`, { post: { requestBody: body } }])),
  };
}

describe('OpenAPI import amplification', () => {
  it("keeps a parameter's default as written: a $ref inside it is data, never expanded", async () => {
    // Ten pointers a level, eight levels: expanded, the default would be 10^8 objects.
    const document = fanOutDocument(8, 10, (ref) => ({ type: 'object', default: { nested: [ref, ref] } }));
    expect(JSON.stringify(document).length).toBeLessThan(4000);
    const { endpoints } = await importOpenApi(document);
    expect(endpoints[0]!.parameters[0]!.default).toEqual({
      nested: [{ $ref: '#/components/schemas/L0' }, { $ref: '#/components/schemas/L0' }],
    });
    expect(JSON.stringify(endpoints).length).toBeLessThan(1000);
  });

  it('stops an import whose pointers multiply the work past the limit, naming it, and a self-referencing allOf', async () => {
    const shared = sharedBodyDocument(300, 300);
    expect(JSON.stringify(shared).length).toBeLessThan(50_000);
    await expect(importOpenApi(shared)).rejects.toThrow(new RegExp(`followed: more than ${MAX_IMPORT_WORK} (parameters|schema steps)`));
    const loop = {
      openapi: '3.0.3',
      components: { schemas: { A: { allOf: [{ $ref: '#/components/schemas/A' }] } } },
      paths: { '/x': { post: { parameters: [{ name: 'a', in: 'query', schema: { $ref: '#/components/schemas/A' } }] } } },
    };
    await expect(importOpenApi(loop)).rejects.toThrow(/allOf, anyOf or oneOf more than 32 levels deep/);
  });
});

describe('file references in job results', () => {
  it("keep only the platform's own media as references; any other URL becomes plain data", () => {
    const site = 'https://limelight.example';
    const result = confineFileReferences(
      {
        image: { url: `${site}/media/files/abc.png`, content_type: 'image/png', size: 3 },
        relative: { url: '/media/files/def.wav', content_type: 'audio/wav', size: 4 },
        forged: { url: 'https://evil.example/media/files/x.exe', content_type: 'image/png', size: 5 },
        traversal: { url: `${site}/media/files/../../account`, content_type: 'image/png', size: 6 },
        list: [{ url: 'javascript:alert(1)', content_type: 'text/html' }],
        text: 'https://evil.example/x',
      },
      site,
    );
    expect(result).toEqual({
      image: { url: `${site}/media/files/abc.png`, content_type: 'image/png', size: 3 },
      relative: { url: '/media/files/def.wav', content_type: 'audio/wav', size: 4 },
      forged: { external_url: 'https://evil.example/media/files/x.exe', content_type: 'image/png', size: 5 },
      traversal: { external_url: `${site}/media/files/../../account`, content_type: 'image/png', size: 6 },
      list: [{ external_url: 'javascript:alert(1)', content_type: 'text/html' }],
      text: 'https://evil.example/x',
    });
  });
});

describe('the input guard', () => {
  it('counts nesting outside strings, and stops counting past the limit', () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[[{{{{"}]}')).toBe(3);
    expect(jsonDepth('"\\"[[["')).toBe(0);
    expect(jsonDepth('['.repeat(100000))).toBe(MAX_JSON_DEPTH + 1);
  });
});

describe('against a development server', () => {
  let server: PlatformTestServer;
  beforeAll(async () => {
    const perUser = {
      RATE_LIMIT_JOBS: '5',
      RATE_LIMIT_FILES: '5',
      RATE_LIMIT_IMPORTS: '5',
      RATE_LIMIT_HEALTH_CHECKS: '5',
      STORAGE_QUOTA_FREE_MB: '1',
      MAX_JOB_STREAMS_PER_USER: '2',
    };
    server = await startPlatformServer({ runtimes: testRuntimes, env: perUser });
  });
  afterAll(() => server?.close());

  async function publisher(label: string) {
    const { session } = await signedIn(server, await confirmedUser(server, label));
    return session.access_token;
  }

  it('refuses the platform itself as a service URL, an import URL and a webhook', async () => {
    const token = await publisher('self');
    const mailbox = `${server.url}/dev/mailbox.json?to=victim@example.test`;
    const created = await rawApi(server, 'POST', '/v1/model_management/services', {
      token,
      body: { display_name: `Self ${Date.now()}`, visibility: 'public', runtime: { type: 'http', base_url: `${server.url}/dev` } },
    });
    expect(created.status).toBe(422);
    expect(JSON.stringify(created.json)).toMatch(/runtime\.base_url.*platform's own address/);
    const imported = await rawApi(server, 'POST', '/v1/model_management/import_openapi', { token, body: { url: mailbox } });
    expect(imported.status).toBe(422);
    expect(String(imported.json.detail)).toMatch(/platform's own address/);
    const { token: runnerToken } = await runner(server, 'self-webhook');
    const job = await rawApi(server, 'POST', '/v1/jobs', {
      token: runnerToken,
      body: {
        service_id: TEXT2IMG,
        endpoint: '/generate',
        input: { prompt: 'x' },
        webhook: `http://localhost:${new URL(server.url).port}/dev`,
      },
    });
    expect(job.status).toBe(422);
    expect(JSON.stringify(job.json)).toMatch(/platform's own address/);
  });

  it('the dev mailbox refuses a request the platform itself makes, and still answers this machine', async () => {
    expect((await rawGet(`${server.url}/dev/mailbox.json`)).status).toBe(200);
    const own = await rawGet(`${server.url}/dev/mailbox.json`, { [PLATFORM_REQUEST_HEADER]: '1' });
    expect(own.status).toBe(403);
  });

  it('refuses bodies nested deeper than the limit and numbers JSON cannot store, with 400 naming the rule', async () => {
    const { token } = await runner(server, 'odd-input');
    const deep = `{"service_id":"${TEXT2IMG}","endpoint":"/generate","input":{"prompt":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const nested = await rawApi(server, 'POST', '/v1/jobs', { token, rawBody: deep });
    expect(nested.status).toBe(400);
    expect(String(nested.json.detail)).toMatch(/nested too deeply: .* at most 64 levels/);
    const huge = await rawApi(server, 'POST', '/v1/jobs', {
      token,
      rawBody: `{"service_id":"${TEXT2IMG}","endpoint":"/generate","input":{"prompt":"x","seed":1e309}}`,
    });
    expect(huge.status).toBe(400);
    expect(String(huge.json.detail)).toMatch(/input\.seed is a number too large/);
    const publisherToken = await publisher('odd-patch');
    const service = await rawApi(server, 'POST', '/v1/model_management/services', {
      token: publisherToken,
      body: { display_name: `Odd ${Date.now()}`, visibility: 'public' },
    });
    const patch = await rawApi(server, 'PATCH', `/v1/model_management/services/${String(service.json.id)}`, {
      token: publisherToken,
      rawBody: `{"endpoints":[{"method":"POST","path":"/x","parameters":[{"name":"p","type":"json","default":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}]}]}`,
    });
    expect(patch.status).toBe(400);
    const infinite = await rawApi(server, 'PATCH', `/v1/model_management/services/${String(service.json.id)}`, {
      token: publisherToken,
      rawBody: `{"endpoints":[{"method":"POST","path":"/x","parameters":[{"name":"p","type":"number","default":-1e400}]}]}`,
    });
    expect(infinite.status).toBe(400);
    expect(String(infinite.json.detail)).toMatch(/endpoints\[0\]\.parameters\[0\]\.default is a number too large/);
  });

  it('refuses image bombs as card images with 422 naming the size, and still takes a real picture', async () => {
    const token = await publisher('bomb');
    const service = await rawApi(server, 'POST', '/v1/model_management/services', {
      token,
      body: { display_name: `Bombed ${Date.now()}`, visibility: 'public' },
    });
    const upload = async (bytes: Uint8Array, type: string) => {
      const form = new FormData();
      form.append('file', new Blob([bytes.slice()], { type }), 'card');
      const response = await fetch(`${server.url}/v1/model_management/services/${String(service.json.id)}/image`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    const png = await upload(pngBomb(10_000, 10_000), 'image/png');
    expect(png.status).toBe(422);
    expect(String(png.json.detail)).toMatch(/10000×10000 pixels .* limit for PNG images is 16 megapixels/);
    const gif = await upload(gifBomb(16_000, 16_000), 'image/gif');
    expect(gif.status).toBe(422);
    expect(String(gif.json.detail)).toMatch(/16000×16000/);
    const real = await upload(await new Jimp({ width: 800, height: 600, color: 0x3366ccff }).getBuffer('image/png'), 'image/png');
    expect(real.status).toBe(200);
    const card = await fetch(String(real.json.display_img_url).replace(/^https?:\/\/[^/]+/, server.url));
    expect(readImageHeader(new Uint8Array(await card.arrayBuffer()))).toEqual({ format: 'jpeg', width: 660, height: 372 });
  });

  it('answers 422 naming what was too large when a pasted OpenAPI document fans out', async () => {
    const token = await publisher('fan-out');
    const document = sharedBodyDocument(300, 300);
    const answer = await rawApi(server, 'POST', '/v1/model_management/import_openapi', { token, body: { document } });
    expect(answer.status).toBe(422);
    expect(String(answer.json.detail)).toMatch(/^document: The document is too large once its \$ref pointers are followed: more than \d+/);
  });

  describe('the catalogue cache and signed-out tokens', () => {
    const descriptors = (token: string) => rawApi(server, 'GET', '/v1/model_management/model_descriptors', { token });
    const lists = (answer: { json: unknown }, id: string) => (answer.json as Array<{ id: string }>).some((d) => d.id === id);

    it("stops showing a signed-out token the user's private services within 5 s, and never files the public answer as theirs", async () => {
      const credentials = await confirmedUser(server, 'cache');
      const first = await signedIn(server, credentials);
      const second = await signedIn(server, credentials);
      const third = await signedIn(server, credentials);
      const owner = first.session.access_token;
      await subscribe(server.platform.database.db, first.user.id, 'pro');
      const created = await rawApi(server, 'POST', '/v1/model_management/services', {
        token: owner,
        body: { display_name: `Private ${Date.now()}`, visibility: 'private' },
      });
      expect(created.status).toBe(201);
      const id = String(created.json.id);
      expect(lists(await descriptors(owner), id)).toBe(true);
      expect(lists(await descriptors(second.session.access_token), id)).toBe(true); // warms the cache for this token

      await second.client.auth.signOut({ scope: 'local' });
      await third.client.auth.signOut({ scope: 'local' });
      // The revoked token that has been seen drops to the public catalogue within the documented 5 s…
      await expect
        .poll(async () => lists(await descriptors(second.session.access_token), id), { timeout: 10_000, interval: 250 })
        .toBe(false);
      // …a revoked token never seen before reads the public one at once…
      expect(lists(await descriptors(third.session.access_token), id)).toBe(false);
      // …and neither filed the public answer as the owner's: their live session still sees the private service.
      expect(lists(await descriptors(owner), id)).toBe(true);
    });
  });

  it('limits jobs, uploads, imports and health checks per user with 429 and Retry-After, counting each user apart', async () => {
    const { token } = await runner(server, 'flood');
    const { token: other } = await runner(server, 'calm');
    const calls: Array<[string, (t: string) => Promise<{ status: number; headers: Headers; json: Record<string, unknown> }>]> = [
      [
        'jobs created',
        (t) => rawApi(server, 'POST', '/v1/jobs', { token: t, body: { service_id: TEXT2IMG, endpoint: '/generate', input: {} } }),
      ],
      [
        'OpenAPI imports',
        (t) =>
          rawApi(server, 'POST', '/v1/model_management/import_openapi', { token: t, body: { document: { openapi: '3.1.0', paths: {} } } }),
      ],
      [
        'file uploads',
        async (t) => {
          const form = new FormData();
          form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'application/octet-stream' }), 'x.bin');
          const response = await fetch(`${server.url}/v1/files`, { method: 'POST', headers: { Authorization: `Bearer ${t}` }, body: form });
          return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, unknown> };
        },
      ],
    ];
    for (const [what, call] of calls) {
      for (let i = 0; i < 5; i++) expect((await call(token)).status, `${what} ${i}`).not.toBe(429);
      const refused = await call(token);
      expect(refused.status, what).toBe(429);
      expect(Number(refused.headers.get('retry-after')), what).toBeGreaterThan(0);
      expect(String(refused.json.detail), what).toContain(`Too many ${what}: at most 5 per`);
      expect((await call(other)).status, `${what} for another user`).not.toBe(429);
    }
  });

  it("refuses an upload past the plan's storage quota with 413 and a message saying so", async () => {
    const { token } = await runner(server, 'hoarder');
    const upload = async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(600 * 1024)], { type: 'image/png' }), 'big.png');
      const response = await fetch(`${server.url}/v1/files`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    expect((await upload()).status).toBe(201);
    const refused = await upload();
    expect(refused.status).toBe(413);
    expect(String(refused.json.detail)).toMatch(/^file: your free plan stores up to 1 MB of files at once and 0\.6 MB are in use/);
  });

  it('caps the job streams one user keeps open, and frees a place when one closes', async () => {
    const { token } = await runner(server, 'streams');
    const job = await rawApi(server, 'POST', '/v1/jobs', {
      token,
      body: { service_id: TEXT2IMG, endpoint: '/generate', input: { prompt: 'sleep:60000' } },
    });
    expect(job.status).toBe(201); // runs for a minute: its streams stay open
    const open = async () => {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/v1/jobs/${String(job.json.job_id)}/stream`, {
        headers: { Authorization: `Bearer ${token}` },
        signal: controller.signal,
      });
      if (response.status === 200) await response.body!.getReader().read(); // the first event: the stream is open
      return { status: response.status, close: () => controller.abort(), response };
    };
    const first = await open();
    const second = await open();
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await open();
    expect(third.status).toBe(429);
    expect(String(((await third.response.json()) as { detail: string }).detail)).toMatch(/at most 2 per account/);
    first.close();
    await expect
      .poll(async () => {
        const again = await open();
        again.close();
        return again.status;
      })
      .toBe(200);
    second.close();
    await rawApi(server, 'POST', `/v1/jobs/${String(job.json.job_id)}/cancel`, { token });
  });

  it('keeps a random webhook secret per user, rotates it with an overlap, and never shows it to an API key', async () => {
    const { token, userId } = await runner(server, 'secret');
    const { token: other } = await runner(server, 'secret-other');
    const first = await rawApi(server, 'GET', '/v1/jobs/webhook-secret', { token });
    expect(first.status).toBe(200);
    expect(String(first.json.secret)).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await rawApi(server, 'GET', '/v1/jobs/webhook-secret', { token })).json.secret).toBe(first.json.secret);
    expect((await rawApi(server, 'GET', '/v1/jobs/webhook-secret', { token: other })).json.secret).not.toBe(first.json.secret);

    const key = await rawApi(server, 'POST', '/v1/profile/create_api_key', { token, body: {} });
    const apiKey = String(key.json.secret);
    for (const [method, path] of [
      ['GET', '/v1/jobs/webhook-secret'],
      ['POST', '/v1/jobs/webhook-secret/rotate'],
    ] as const) {
      const refused = await rawApi(server, method, path, { token: apiKey });
      expect(refused.status, path).toBe(403);
      expect(JSON.stringify(refused.json)).not.toContain('whsec_');
    }

    const rotated = await rawApi(server, 'POST', '/v1/jobs/webhook-secret/rotate', { token });
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).not.toBe(first.json.secret);
    expect((await rawApi(server, 'GET', '/v1/jobs/webhook-secret', { token })).json.secret).toBe(rotated.json.secret);
    const rows = await sql<{ secret_sealed: string; previous_sealed: string | null; previous_valid_until: Date }>`
      SELECT * FROM webhook_secrets WHERE user_id = ${userId}`.execute(server.platform.database.db);
    const row = rows.rows[0]!;
    expect(row.previous_sealed).not.toBeNull(); // the old secret still signs during the overlap…
    expect(new Date(row.previous_valid_until).getTime() - Date.now()).toBeGreaterThan(23 * 3600_000); // …of 24 hours
    for (const secret of [first.json.secret, rotated.json.secret]) expect(JSON.stringify(row)).not.toContain(String(secret).slice(6)); // sealed
  });

  describe('service names are unique addresses', () => {
    const create = (token: string, display_name: string) =>
      rawApi(server, 'POST', '/v1/model_management/services', { token, body: { display_name, visibility: 'public' } });

    it("refuses a seeded service's name, in any case and with spaces around it, with 409 on the field", async () => {
      const token = await publisher('copycat');
      const seeded = await rawApi(server, 'GET', '/v1/model_management/model_descriptors');
      const name = String((seeded.json as unknown as Array<{ display_name: string | null }>).find((d) => d.display_name)!.display_name);
      const copy = await create(token, `  ${name.toUpperCase()} `);
      expect(copy.status).toBe(409);
      expect(copy.json).toMatchObject({ errors: [{ name: 'display_name', rule: 'unique' }] });
      expect(String(copy.json.detail)).toMatch(/already called/);
    });

    it("refuses another publisher's name and an owner/name in someone else's name; allows one's own handle", async () => {
      const first = await publisher('first');
      const second = await publisher('second');
      const name = `Unique Service ${Date.now()}`;
      expect((await create(first, name)).status).toBe(201);
      expect((await create(second, name.toLowerCase())).status).toBe(409);
      const imitation = await create(second, 'black-forest-labs/flux-pro-copy');
      expect(imitation.status).toBe(409);
      expect(String(imitation.json.detail)).toMatch(/own handle/);
      const credentials = await confirmedUser(server, 'handle');
      const { session } = await signedIn(server, credentials);
      const mine = await create(session.access_token, `${credentials.email.split('@')[0]}/my-model`);
      expect(mine.status).toBe(201);
    });

    it('refuses renaming onto a taken name; keeping the own name is fine', async () => {
      const token = await publisher('rename');
      const a = await create(token, `Alpha ${Date.now()}`);
      const b = await create(token, `Beta ${Date.now()}`);
      const id = String(b.json.id);
      const clash = await rawApi(server, 'PATCH', `/v1/model_management/services/${id}`, {
        token,
        body: { display_name: a.json.display_name },
      });
      expect(clash.status).toBe(409);
      const same = await rawApi(server, 'PATCH', `/v1/model_management/services/${id}`, {
        token,
        body: { display_name: b.json.display_name },
      });
      expect(same.status).toBe(200);
    });
  });
});
