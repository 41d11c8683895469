import type { Db } from '../db/types';

// The catalogue's SQL: services (models), categories, hosting state and prices. A service's own
// hosting row, for its owner, is hosting's (hosting/queries.ts, selectHosting).

export function selectCategories(db: Db) {
  return db.selectFrom('model_categories').selectAll().orderBy('sort_idx').execute();
}

/**
 * Services with what the descriptor says about their deployment: the runtime type and the
 * hosting status (a container service's coarse state, catalogue/descriptors.ts), and the base URL
 * the runtime registry needs to tell what runs it (the demo badge; never answered).
 */
function servicesWithDeployment(db: Db) {
  return db
    .selectFrom('models')
    .leftJoin('service_runtimes', 'service_runtimes.model_id', 'models.id')
    .leftJoin('model_hosting', 'model_hosting.model_id', 'models.id')
    .selectAll('models')
    .select(['service_runtimes.type as runtime_type', 'service_runtimes.base_url', 'model_hosting.status as hosting_status'])
    .where('models.deleted_at', 'is', null);
}

export function selectPublicServices(db: Db) {
  return servicesWithDeployment(db)
    .where('models.is_public', '=', true)
    .orderBy('models.created_at', 'desc')
    .orderBy('models.id')
    .execute();
}

export function selectPrivateServicesOf(db: Db, userId: string) {
  return servicesWithDeployment(db)
    .where('models.created_by', '=', userId)
    .where('models.is_public', '=', false)
    .orderBy('models.created_at', 'desc')
    .execute();
}

/**
 * One row per offer (docs/publishing.md, "GPUs"): rows that differ only by price (the same GPU
 * name, VRAM, GPU count and provider) are one offer, answered at its cheapest price (the lowest
 * id among equal prices); cheapest offers first. Every row stays in the table, so a service saved
 * with a dropped row's id keeps its GPU.
 */
export function selectPricingServers(db: Db) {
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('pricing_servers')
        .distinctOn(['display_name', 'gpu_vram_gb', 'physical_gpus', 'provider'])
        .selectAll()
        .orderBy('display_name')
        .orderBy('gpu_vram_gb')
        .orderBy('physical_gpus')
        .orderBy('provider')
        .orderBy('customer_price_per_s_usd')
        .orderBy('id')
        .as('offers'),
    )
    .selectAll()
    .orderBy('customer_price_per_s_usd')
    .orderBy('id')
    .execute();
}

export function selectServicePricing(db: Db) {
  return db
    .selectFrom('model_pricing')
    .innerJoin('models', 'models.id', 'model_pricing.model_id')
    .select(['model_pricing.model_id', 'models.display_name', 'model_pricing.unit', 'model_pricing.price_usd'])
    .where('models.is_public', '=', true)
    .where('models.deleted_at', 'is', null)
    .orderBy('models.display_name')
    .execute();
}
