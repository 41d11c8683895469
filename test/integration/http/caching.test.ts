import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_CHANNEL, CATALOGUE_COUNTS_PREFIX, CATALOGUE_PATHS } from '../../../reference-app/server/http';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { PUBLISHER, rawGet, signedIn } from '../helpers';

// Catalogue reads from the per-process cache with ETag/304, invalidated by every catalogue
// write (migration 006's triggers, LISTEN/NOTIFY), and compressed answers (docs/deploy.md).

let server: PlatformTestServer;
let token: string;
const CATEGORIES = '/v1/model_management/model_categories';
const DESCRIPTORS = '/v1/model_management/model_descriptors';

beforeAll(async () => {
  server = await startPlatformServer();
  token = (await signedIn(server, PUBLISHER)).session.access_token;
});
afterAll(() => server?.close());

describe('catalogue reads: ETag and 304', () => {
  it.each([...CATALOGUE_PATHS.keys()])('%s answers with a strong ETag, no-cache, and 304 for a matching If-None-Match', async (path) => {
    const first = await rawGet(`${server.url}${path}`);
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(JSON.parse(first.body.toString())).toBeInstanceOf(Array);

    const again = await rawGet(`${server.url}${path}`, { 'If-None-Match': first.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);

    const other = await rawGet(`${server.url}${path}`, { 'If-None-Match': '"something-else"' });
    expect(other.status).toBe(200);
    expect(other.body.equals(first.body)).toBe(true);
  });

  it('a write to a catalogue table changes the next answer and its ETag (trigger + NOTIFY)', async () => {
    const before = await rawGet(`${server.url}${CATEGORIES}`);
    const { db } = server.platform.database;
    const [row] = await db.selectFrom('model_categories').select(['id', 'title']).orderBy('sort_idx').limit(1).execute();
    await db.updateTable('model_categories').set({ title: 'Renamed by the cache test' }).where('id', '=', row!.id).execute();
    try {
      await expect
        .poll(async () => (await rawGet(`${server.url}${CATEGORIES}`)).body.toString(), { timeout: 5_000 })
        .toContain('Renamed by the cache test');
      const after = await rawGet(`${server.url}${CATEGORIES}`, { 'If-None-Match': before.headers.etag as string });
      expect(after.status).toBe(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
    } finally {
      await db.updateTable('model_categories').set({ title: row!.title }).where('id', '=', row!.id).execute();
    }
  });

  it('every catalogue write takes a new catalogue_version (the sequence the triggers advance)', async () => {
    const { db } = server.platform.database;
    const version = async () => (await sql<{ v: number }>`select last_value::int as v from catalogue_version`.execute(db)).rows[0]!.v;
    const start = await version();
    for (const table of ['model_categories', 'pricing_servers', 'model_pricing', 'plans'] as const) {
      await sql`update ${sql.table(table)} set ${sql.ref(table === 'plans' ? 'key' : table === 'model_pricing' ? 'model_id' : 'id')} = ${sql.ref(table === 'plans' ? 'key' : table === 'model_pricing' ? 'model_id' : 'id')} where false`.execute(
        db,
      );
    }
    // Statement-level triggers fire even when no row matches: one bump per statement.
    expect(await version()).toBe(start + 4);
    // models announces per changed row (migration 012): a write that changes nothing announces nothing.
    await sql`update models set display_name = display_name`.execute(db);
    expect(await version()).toBe(start + 4);
  });

  it('a run count changing announces counts: the catalogue answer changes, the job service keeps its services', async () => {
    const { db } = server.platform.database;
    const payloads: string[] = [];
    const stop = await server.platform.database.listen(CATALOGUE_CHANNEL, { notify: (payload) => payloads.push(payload) });
    const [model] = await db
      .selectFrom('models')
      .select(['id', 'n_usages', 'display_name'])
      .where('is_public', '=', true)
      .limit(1)
      .execute();
    const before = await rawGet(`${server.url}${DESCRIPTORS}`);
    try {
      await db
        .updateTable('models')
        .set({ n_usages: Number(model!.n_usages) + 7 })
        .where('id', '=', model!.id)
        .execute();
      await expect.poll(() => payloads.length).toBe(1);
      expect(payloads[0]).toMatch(new RegExp(`^${CATALOGUE_COUNTS_PREFIX}\\d+$`));
      const after = await rawGet(`${server.url}${DESCRIPTORS}`, { 'If-None-Match': before.headers.etag as string });
      expect(after.status).toBe(200);
      const shown = (JSON.parse(after.body.toString()) as { id: string; n_usages: number }[]).find((m) => m.id === model!.id);
      expect(Number(shown!.n_usages)).toBe(Number(model!.n_usages) + 7);

      // Any other change to the row is a catalogue change as before.
      await db
        .updateTable('models')
        .set({ display_name: `${model!.display_name} (renamed)` })
        .where('id', '=', model!.id)
        .execute();
      await expect.poll(() => payloads.length).toBe(2);
      expect(payloads[1]).toMatch(/^\d+$/);
    } finally {
      await db
        .updateTable('models')
        .set({ n_usages: model!.n_usages, display_name: model!.display_name })
        .where('id', '=', model!.id)
        .execute();
      await stop();
    }
  });

  it('model_descriptors: a signed-in caller gets their private services under a private, per-caller entry', async () => {
    const anonymous = await rawGet(`${server.url}${DESCRIPTORS}`);
    const mine = await rawGet(`${server.url}${DESCRIPTORS}`, { Authorization: `Bearer ${token}` });
    const publicIds = (JSON.parse(anonymous.body.toString()) as { id: string; is_public: boolean }[]).map((m) => m.id);
    const own = JSON.parse(mine.body.toString()) as { id: string; is_public: boolean }[];
    expect(own.some((m) => !m.is_public)).toBe(true);
    expect(publicIds.every((id) => own.some((m) => m.id === id))).toBe(true);
    expect(mine.headers.etag).not.toBe(anonymous.headers.etag);
    expect(mine.headers['cache-control']).toBe('private, no-cache');
    expect(mine.headers.vary).toMatch(/Authorization/);
    expect(anonymous.headers.vary).toMatch(/Authorization/);
    // The anonymous ETag must not validate the personal list, nor the other way round.
    expect(
      (await rawGet(`${server.url}${DESCRIPTORS}`, { 'If-None-Match': anonymous.headers.etag as string, Authorization: `Bearer ${token}` }))
        .status,
    ).toBe(200);
    expect((await rawGet(`${server.url}${DESCRIPTORS}`, { 'If-None-Match': mine.headers.etag as string })).status).toBe(200);
    expect(
      (await rawGet(`${server.url}${DESCRIPTORS}`, { 'If-None-Match': mine.headers.etag as string, Authorization: `Bearer ${token}` }))
        .status,
    ).toBe(304);
  });

  it("a forged or broken token reads the public catalogue, never someone else's entry", async () => {
    const anonymous = await rawGet(`${server.url}${DESCRIPTORS}`);
    const forged = `${token.slice(0, -4)}AAAA`;
    for (const authorization of [`Bearer ${forged}`, 'Bearer not-a-jwt', 'Basic abc']) {
      const answer = await rawGet(`${server.url}${DESCRIPTORS}`, { Authorization: authorization });
      expect(answer.status).toBe(200);
      expect(answer.headers.etag).toBe(anonymous.headers.etag);
    }
  });

  it("a change to the owner's private service shows at once in their list and never in the public one", async () => {
    const { db } = server.platform.database;
    const before = await rawGet(`${server.url}${DESCRIPTORS}`, { Authorization: `Bearer ${token}` });
    const secret = (JSON.parse(before.body.toString()) as { id: string; display_name: string | null; is_public: boolean }[]).find(
      (m) => !m.is_public,
    )!;
    await db.updateTable('models').set({ display_name: 'Renamed private service' }).where('id', '=', secret.id).execute();
    try {
      await expect
        .poll(async () => (await rawGet(`${server.url}${DESCRIPTORS}`, { Authorization: `Bearer ${token}` })).body.toString(), {
          timeout: 5_000,
        })
        .toContain('Renamed private service');
      expect((await rawGet(`${server.url}${DESCRIPTORS}`)).body.toString()).not.toContain(secret.id);
    } finally {
      await db.updateTable('models').set({ display_name: secret.display_name }).where('id', '=', secret.id).execute();
    }
  });
});

describe('compression', () => {
  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('catalogue answers come %s-encoded when asked, identical once decoded', async (encoding, decode) => {
    const plain = await rawGet(`${server.url}${DESCRIPTORS}`);
    const encoded = await rawGet(`${server.url}${DESCRIPTORS}`, { 'Accept-Encoding': `${encoding}` });
    expect(encoded.headers['content-encoding']).toBe(encoding);
    expect(encoded.headers.vary).toMatch(/Accept-Encoding/);
    expect(encoded.body.length).toBeLessThan(plain.body.length / 3);
    expect(decode(encoded.body).equals(plain.body)).toBe(true);
    // Same entity, other bytes: a weak validator that still revalidates with 304.
    expect(encoded.headers.etag).toBe(`W/${plain.headers.etag}`);
    const revalidated = await rawGet(`${server.url}${DESCRIPTORS}`, {
      'Accept-Encoding': encoding,
      'If-None-Match': encoded.headers.etag as string,
    });
    expect(revalidated.status).toBe(304);
  });

  it('other API JSON is compressed per request; q=0 and identity-only clients get it plain', async () => {
    const plain = await rawGet(`${server.url}/v1/openapi.json`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    const gz = await rawGet(`${server.url}/v1/openapi.json`, { 'Accept-Encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    const refused = await rawGet(`${server.url}/v1/openapi.json`, { 'Accept-Encoding': '*;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('tiny answers are not compressed', async () => {
    const answer = await rawGet(`${server.url}/v1/no/such/route`, { 'Accept-Encoding': 'br, gzip' });
    expect(answer.status).toBe(404);
    expect(answer.headers['content-encoding']).toBeUndefined();
  });

  it('HEAD on a catalogue read answers the headers without a body', async () => {
    const head = await rawGet(`${server.url}${CATEGORIES}`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.etag).toMatch(/^"/);
    expect(head.body.length).toBe(0);
  });
});
