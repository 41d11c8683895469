// The catalogue loaded from the real local platform server (product-rules §4 two-step loading over the
// product-rules §7 model-management calls), and the header search's rules over the seeded catalogue.
import { describe, expect, it } from 'vitest';
import { createModelManagementClient, type ModelDescriptor } from '../../../src/api';
import { createApiCatalogueLoader, createCatalogue, findServiceByPath, searchModels } from '../../../src/catalogue';
import { createMemoryCache } from '../../../src/catalogue/store';
import { servicePathSegments } from '../../../src/catalogue/paths';
import { fixtureModel } from '../../fixtures/catalogue';
import { globalServer } from '../helpers';

const client = () => createModelManagementClient({ baseURL: globalServer().url });

describe('catalogue from the platform API (product-rules §4, §7)', () => {
  it('loads the seeded descriptors and categories', async () => {
    const data = await createApiCatalogueLoader(client())();
    expect(data.models.length).toBeGreaterThanOrEqual(60);
    expect(data.categories.length).toBeGreaterThan(0);
    // The seed's untidy shapes are all there and all readable.
    const shapes = new Set(
      data.models.map((m) => (m.model_category === null ? 'none' : Array.isArray(m.model_category) ? 'list' : typeof m.model_category)),
    );
    expect([...shapes]).toEqual(expect.arrayContaining(['string', 'list', 'object']));
    expect(data.models.some((m) => (m.display_name ?? '').includes('/'))).toBe(true);
  });

  it('shows the cache first, then the server data, and caches it', async () => {
    const cache = createMemoryCache({ models: [fixtureModel('whisper')], categories: [] });
    const catalogue = createCatalogue({ load: createApiCatalogueLoader(client()), cache });
    const loading = catalogue.load();
    expect(catalogue.store.getSnapshot().context.models.map((m: ModelDescriptor) => m.id)).toEqual(['whisper']);
    await loading;
    const c = catalogue.store.getSnapshot().context;
    expect(c.source).toBe('server');
    expect(c.models.length).toBeGreaterThanOrEqual(60);
    expect(cache.read()!.models).toBe(c.models);
  });

  it('fails with the normalised offline error when nothing answers, and logs it (product-rules §7, §8)', async () => {
    const errors: unknown[] = [];
    const offline = createModelManagementClient({ baseURL: 'http://127.0.0.1:9' });
    const catalogue = createCatalogue({ load: createApiCatalogueLoader(offline), logger: { error: (...args) => errors.push(args) } });
    await expect(catalogue.load()).rejects.toMatchObject({ name: 'ApiError', status: 0 });
    expect(catalogue.store.getSnapshot().context.status).toBe('error');
    expect(errors).toHaveLength(1);
  });

  it('every seeded service is found again from its own page address (product-rules §2)', async () => {
    const { models } = await createApiCatalogueLoader(client())();
    for (const model of models) {
      expect(findServiceByPath(models, servicePathSegments(model))?.id).toBe(model.id);
    }
  });

  it('searches the seeded catalogue: a typo still finds an owner/name service', async () => {
    const { models, categories } = await createApiCatalogueLoader(client())();
    const target = models.find((m) => (m.display_name ?? '').includes('/'))!;
    const name = target.display_name!.split('/')[1]!;
    const typo = name.length > 5 ? name.slice(0, 2) + name.slice(3) : name;
    expect(searchModels(models, categories, { query: typo }).map((m) => m.id)).toContain(target.id);
  });
});
