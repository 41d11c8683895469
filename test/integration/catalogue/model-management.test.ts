import { beforeAll, describe, expect, it } from 'vitest';
import { TOKENS_MISSING_ERROR, type ModelDescriptor } from '../../../src/api';
import { DOMAINS } from '../../../src/api/types';
import { keepThirdPartyPricingServers } from '../../../src/api/modelManagement';
import { SEED_MODELS } from '../../../reference-app/server/seed';
import { apiClients, DEMO, globalServer, PUBLISHER, PUBLISHER_ID, rawApi, signedIn } from '../helpers';

// /v1/model_management/ through the clients of src/api (product-rules §7), and the seed catalogue it
// serves (issue 3: ≥60 services, every home-page category and domain, untidy real-world data).

const target = globalServer();
const HOME_CATEGORIES = [
  'Generate images',
  'Generate text',
  'Generate speech',
  'Generate videos',
  'Generate 3D',
  'Swap faces',
  'Voice cloning',
  'Background removal',
];
const norm = (d: string) => d.toLowerCase().replace(/[^a-z0-9]/g, '');

let publisherToken: string;
let demoToken: string;
beforeAll(async () => {
  publisherToken = (await signedIn(target, PUBLISHER)).session.access_token;
  demoToken = (await signedIn(target, DEMO)).session.access_token;
});

describe('model_categories', () => {
  it('lists the home-page categories in chip order and covers every domain', async () => {
    const result = await apiClients(target, null).modelManagement.modelCategories();
    if (!result.ok) throw new Error(result.error);
    expect(result.data.slice(0, 8).map((c) => c.title)).toEqual(HOME_CATEGORIES);
    const domains = new Set(result.data.flatMap((c) => [...c.input_domain, ...c.output_domain]).map(norm));
    for (const domain of DOMAINS) expect(domains.has(norm(domain))).toBe(true);
  });
});

describe('model_descriptors', () => {
  let anonymous: ModelDescriptor[];
  beforeAll(async () => {
    const result = await apiClients(target, null).modelManagement.modelDescriptors();
    if (!result.ok) throw new Error(result.error);
    anonymous = result.data;
  });

  it('serves at least 60 public services from both providers without a token', () => {
    expect(anonymous.length).toBeGreaterThanOrEqual(60);
    expect(anonymous.every((m) => m.is_public)).toBe(true);
    expect(new Set(anonymous.map((m) => m.provider))).toEqual(new Set(['limelight', 'replicate']));
  });

  it('has the untidy shapes real data has', () => {
    expect(anonymous.some((m) => m.display_name?.includes('/'))).toBe(true);
    expect(anonymous.some((m) => m.display_name == null)).toBe(true);
    expect(anonymous.some((m) => typeof m.model_category === 'string')).toBe(true);
    expect(anonymous.some((m) => Array.isArray(m.model_category))).toBe(true);
    expect(anonymous.some((m) => m.model_category && typeof m.model_category === 'object' && !Array.isArray(m.model_category))).toBe(true);
    expect(anonymous.some((m) => m.model_category == null)).toBe(true);
    expect(anonymous.some((m) => /<b>/.test(m.model_desc ?? ''))).toBe(true);
    expect(anonymous.some((m) => /onerror=/.test(m.model_desc ?? ''))).toBe(true);
    // Seeded without a picture, with a blank or placeholder one, or one on another host: each is
    // served its designed cover on the site (issue 50; test/integration/catalogue/covers.test.ts).
    const stored = SEED_MODELS.filter((m) => !m.isPrivate).map((m) => m.image);
    expect(stored).toEqual(expect.arrayContaining([null, '', 'placeholder', expect.stringMatching(/^https:\/\/placehold\.co\//)]));
    expect(anonymous.every((m) => m.display_img_url?.startsWith(`${target.url}/media/`))).toBe(true);
    // The seed has public services never run; other files' jobs on this shared server may have
    // run one since (client/samples runs a service of each endpoint), so the served count of
    // those is small, not necessarily 0.
    const neverRun = SEED_MODELS.filter((m) => m.runs === 0 && !m.isPrivate).map((m) => m.id);
    expect(neverRun.length).toBeGreaterThan(0);
    const runs = anonymous.map((m) => m.n_usages ?? 0);
    expect(Math.min(...anonymous.filter((m) => neverRun.includes(m.id)).map((m) => m.n_usages ?? 0))).toBeLessThan(100);
    expect(Math.max(...runs)).toBeGreaterThanOrEqual(1e9);
    const ages = anonymous.map((m) => (Date.now() - Date.parse(m.created_at!)) / 86_400_000);
    expect(Math.max(...ages) - Math.min(...ages)).toBeGreaterThan(600);
    const featured = anonymous.filter((m) => m.sort_idx_featured != null);
    expect(featured.length).toBeGreaterThanOrEqual(18);
    expect(anonymous.every((m) => Array.isArray(m.endpoints))).toBe(true);
    expect(anonymous.some((m) => m.endpoints!.some((e) => e.parameters.some((p) => p.required)))).toBe(true);
  });

  it('has services in every home-page category', async () => {
    const categories = await apiClients(target, null).modelManagement.modelCategories();
    if (!categories.ok) throw new Error(categories.error);
    const idOf = new Map(categories.data.map((c) => [c.title, c.id]));
    const idsOf = (m: ModelDescriptor): string[] =>
      m.model_category == null
        ? []
        : typeof m.model_category === 'string'
          ? [m.model_category]
          : Array.isArray(m.model_category)
            ? m.model_category
            : Object.keys(m.model_category);
    for (const title of HOME_CATEGORIES) {
      expect(anonymous.filter((m) => idsOf(m).includes(idOf.get(title)!)).length, title).toBeGreaterThanOrEqual(3);
    }
  });

  it('gives absolute image URLs that serve the example output pictures (seed/examples.ts)', async () => {
    const model = anonymous.find((m) => m.display_img_url?.startsWith(`${target.url}/media/examples/`))!;
    const first = await fetch(model.display_img_url!);
    // A card's cover: a small WebP of the example output (seed/makeExamples.ts).
    expect(first.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await first.arrayBuffer());
    expect([bytes.subarray(0, 4).toString('latin1'), bytes.subarray(8, 12).toString('latin1')]).toEqual(['RIFF', 'WEBP']);
    expect(bytes.length).toBeGreaterThan(500);
    expect(Buffer.from(await (await fetch(model.display_img_url!)).arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('adds the caller’s own private services, and only theirs', async () => {
    const mine = await apiClients(target, publisherToken).modelManagement.modelDescriptors();
    if (!mine.ok) throw new Error(mine.error);
    const privates = mine.data.filter((m) => !m.is_public);
    expect(privates.length).toBeGreaterThanOrEqual(3);
    expect(privates.every((m) => m.created_by === PUBLISHER_ID)).toBe(true);
    expect(mine.data.length).toBe(anonymous.length + privates.length);

    const theirs = await apiClients(target, demoToken).modelManagement.modelDescriptors();
    if (!theirs.ok) throw new Error(theirs.error);
    expect(theirs.data.some((m) => !m.is_public)).toBe(false);
  });

  it('treats a stale or broken token as anonymous (the catalogue must still load)', async () => {
    const result = await apiClients(target, 'not-a-jwt').modelManagement.modelDescriptors();
    expect(result.ok && result.data.length).toBe(anonymous.length);
  });
});

describe('model_hosting_information', () => {
  it('needs a token: the client says so without a call, the server answers 401 with detail', async () => {
    const client = await apiClients(target, null).modelManagement.modelHostingInformation({ model_id: 'lime-chat-8b' });
    expect(client).toMatchObject({ ok: false, status: 401, error: TOKENS_MISSING_ERROR });
    const raw = await rawApi(target, 'GET', '/v1/model_management/model_hosting_information?model_id=lime-chat-8b');
    expect(raw.status).toBe(401);
    expect(raw.json.detail).toMatch(/Not authenticated/);
    const expired = await rawApi(target, 'GET', '/v1/model_management/model_hosting_information?model_id=lime-chat-8b', {
      token: 'eyJhbGciOiJFUzI1NiJ9.e30.AAAA',
    });
    expect(expired.status).toBe(401);
    expect(expired.json.detail).toBe('Invalid access token');
  });

  it('finds a service by model_id or hosted_model_id (hosted_model_id wins)', async () => {
    const mm = apiClients(target, demoToken).modelManagement;
    const byModel = await mm.modelHostingInformation({ model_id: 'lime-chat-8b' });
    expect(byModel).toMatchObject({
      ok: true,
      data: { model_id: 'lime-chat-8b', hosted_model_id: 'hm_lime-chat-8b', status: 'running', gpu: 'H100 80 GB' },
    });
    const both = await mm.modelHostingInformation({ hosted_model_id: 'hm_lime-voice', model_id: 'lime-chat-8b' });
    expect(both).toMatchObject({ ok: true, data: { model_id: 'lime-voice' } });
    expect(await mm.modelHostingInformation({})).toBeNull();
  });

  it('answers 404 with detail for unknown, third-party and other people’s private services', async () => {
    const mm = apiClients(target, demoToken).modelManagement;
    expect(await mm.modelHostingInformation({ model_id: 'no-such-model' })).toMatchObject({
      ok: false,
      status: 404,
      error: 'No model service with model_id no-such-model',
    });
    expect(await mm.modelHostingInformation({ model_id: 'openai/whisper' })).toMatchObject({
      ok: false,
      status: 404,
      error: expect.stringMatching(/not hosted on Limelight/),
    });
    const other = await mm.modelHostingInformation({ model_id: 'contract-analyst' });
    expect(other).toMatchObject({ ok: false, status: 404, error: 'No model service with model_id contract-analyst' });
    const owner = await apiClients(target, publisherToken).modelManagement.modelHostingInformation({ model_id: 'contract-analyst' });
    expect(owner?.ok).toBe(true);
  });

  it('answers 422 when neither id is given', async () => {
    const raw = await rawApi(target, 'GET', '/v1/model_management/model_hosting_information', { token: demoToken });
    expect(raw.status).toBe(422);
    expect(raw.json.detail).toBe('hosted_model_id or model_id: give one of them');
  });
});

describe('pricing', () => {
  it('pricing_servers spans A4000 16 GB to H200 141 GB; the clients keep runpod and replicate ones', async () => {
    const result = await apiClients(target, null).modelManagement.pricingServers();
    if (!result.ok) throw new Error(result.error);
    const kept = keepThirdPartyPricingServers(result.data);
    expect(kept.length).toBeLessThan(result.data.length);
    expect(kept.some((s) => s.display_name === 'RTX A4000 16 GB' && s.gpu_vram_gb === 16)).toBe(true);
    expect(kept.some((s) => s.display_name === 'H200 141 GB' && s.gpu_vram_gb === 141)).toBe(true);
    for (const s of result.data) {
      expect(s.customer_price_per_s_usd).toBeGreaterThan(0.00001);
      expect(s.customer_price_per_s_usd).toBeLessThan(0.01);
    }
    const prices = result.data.map((s) => s.customer_price_per_s_usd);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('model_pricing_table prices every public service', async () => {
    const result = await apiClients(target, null).modelManagement.modelPricingTable();
    if (!result.ok) throw new Error(result.error);
    expect(result.data.length).toBeGreaterThanOrEqual(60);
    expect(result.data.every((r) => (r.unit === 'request' || r.unit === 'second') && r.price_usd > 0)).toBe(true);
    expect(result.data.some((r) => r.model_id === 'contract-analyst')).toBe(false);
  });
});
