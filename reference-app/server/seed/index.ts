import { sql } from 'kysely';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { SEED_CATEGORIES } from './categories';
import { ENDPOINTS, HEALTH_ENDPOINT } from './endpoints';
import { realExampleCover, withExample } from '../media/examples';
import { SEED_MODELS, type SeedModel } from './models';
import { SEED_NEWSLETTER_OPTIONS, SEED_PLANS, SEED_PRICING_SERVERS } from './reference';
import { seedRuns } from './runs';
import { SEED_USERS, seedUsers } from './users';

// Loads the seed data on the first start of an empty database, once, even when several
// servers start together against one PostgreSQL (advisory lock + a marker in settings).

// What tests outside test/unit may use besides (docs/testing.md, "Tests and the server's entries"):
// the seeded data they compare against.
export { seededEarningEntries, seededEarnings } from './earnings';
export { ENDPOINTS } from './endpoints';
export { SPEECH_RECORDING, SPEECH_RECORDING_TEXT } from './exampleInputs';
export { OCR_EXAMPLE } from './localModels';
export { SEED_MODELS } from './models';
export { SEEDED_MONTHLY_RUNS } from './runs';

const SEEDED_KEY = 'seeded_at';
const DAY = 86_400_000;

function ownerOf(model: SeedModel): { created_by: string | null; owner_name: string; provider: 'limelight' | 'replicate' } {
  const owner = model.owner;
  if (typeof owner === 'object') return { created_by: null, owner_name: owner.replicate, provider: 'replicate' };
  const user = SEED_USERS[owner === 'limelight' ? 'team' : owner];
  return { created_by: user.id, owner_name: owner, provider: 'limelight' };
}

/** Stable slug for media paths and hosted ids. */
export const slugOf = (id: string) => id.replace(/[^a-z0-9]+/gi, '-').toLowerCase();

async function seedCatalogue(trx: Db): Promise<void> {
  await trx
    .insertInto('model_categories')
    .values(
      SEED_CATEGORIES.map((c, i) => ({
        ...c,
        input_domain: JSON.stringify(c.input_domain),
        output_domain: JSON.stringify(c.output_domain),
        sort_idx: i,
      })),
    )
    .execute();
  const now = Date.now();
  for (const [i, model] of SEED_MODELS.entries()) {
    const owner = ownerOf(model);
    // Creation times spread within the day too, so the newest-first order is unambiguous.
    const createdAt = new Date(now - model.days * DAY - i * 60_000);
    // Every seeded service can be run (on the local demo runtimes); every other one also has a probe.
    const endpoints = [...withExample(model.kind, ENDPOINTS[model.kind] ?? []), ...(i % 2 ? [HEALTH_ENDPOINT] : [])];
    await trx
      .insertInto('models')
      .values({
        id: model.id,
        display_name: model.name === undefined ? model.id : model.name,
        model_desc: model.desc,
        // A service without its own picture shows its real example's (media/examples.ts); the rest
        // none, and the catalogue serves their designed covers (media/covers.ts).
        display_img_url: model.image === undefined ? (realExampleCover(model.kind) ?? null) : model.image,
        used_models: JSON.stringify(model.tags),
        model_category: JSON.stringify(model.category),
        created_by: owner.created_by,
        owner_name: owner.owner_name,
        provider: owner.provider,
        is_public: !model.isPrivate,
        n_usages: model.runs,
        sort_idx_featured: model.featured ?? null,
        endpoints: JSON.stringify(endpoints),
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
    if (model.hosting) {
      await trx
        .insertInto('model_hosting')
        .values({
          hosted_model_id: `hm_${slugOf(model.id)}`,
          model_id: model.id,
          status: model.hosting.status,
          gpu: model.hosting.gpu,
          min_instances: model.hosting.min,
          max_instances: model.hosting.max,
          updated_at: new Date(now - Math.min(model.days, 7) * DAY),
        })
        .execute();
    }
    await trx.insertInto('model_pricing').values({ model_id: model.id, unit: model.price.unit, price_usd: model.price.usd }).execute();
  }
}

async function seedReference(trx: Db, demoAccounts: boolean): Promise<void> {
  await trx.insertInto('pricing_servers').values(SEED_PRICING_SERVERS).execute();
  await trx
    .insertInto('plans')
    .values(SEED_PLANS.map((p, i) => ({ ...p, features: JSON.stringify(p.features), sort_idx: i })))
    .execute();
  await trx.insertInto('newsletter_options').values(SEED_NEWSLETTER_OPTIONS).execute();
  if (!demoAccounts) return;
  await trx
    .insertInto('newsletter_subscriptions')
    .values([1, 2].map((option_id) => ({ email: SEED_USERS.demo.email, option_id })))
    .execute();
}

/**
 * Seeds an empty database; returns false when it was seeded before. Without `demoAccounts`
 * (NODE_ENV=production) no account gets a password (seed/users.ts).
 */
export async function seedDatabase(db: Db, box: SecretBox, { demoAccounts = true }: { demoAccounts?: boolean } = {}): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(727002)`.execute(trx);
    const done = await trx.selectFrom('settings').select('value').where('key', '=', SEEDED_KEY).executeTakeFirst();
    if (done) return false;
    await seedUsers(trx, box, { demoAccounts });
    await seedCatalogue(trx);
    await seedReference(trx, demoAccounts);
    if (demoAccounts) await seedRuns(trx);
    await trx.insertInto('settings').values({ key: SEEDED_KEY, value: new Date().toISOString() }).execute();
    return true;
  });
}
