import type { Db } from '../db/types';

// The catalogue's SQL: services (models), categories, hosting state and prices.

export function selectCategories(db: Db) {
  return db.selectFrom('model_categories').selectAll().orderBy('sort_idx').execute();
}

/**
 * Services with what the descriptor says about their deployment: the runtime type and the
 * hosting status (a container service's coarse state, catalogue/descriptors.ts).
 */
function servicesWithDeployment(db: Db) {
  return db
    .selectFrom('models')
    .leftJoin('service_runtimes', 'service_runtimes.model_id', 'models.id')
    .leftJoin('model_hosting', 'model_hosting.model_id', 'models.id')
    .selectAll('models')
    .select(['service_runtimes.type as runtime_type', 'model_hosting.status as hosting_status'])
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

/** A service with its hosting state, by the hosting id or by the service id. */
export function selectHosting(db: Db, by: 'hosted_model_id' | 'model_id', value: string) {
  return db
    .selectFrom('models')
    .leftJoin('model_hosting', 'model_hosting.model_id', 'models.id')
    .select([
      'models.id as model_id',
      'models.provider',
      'models.is_public',
      'models.created_by',
      'model_hosting.hosted_model_id',
      'model_hosting.status',
      'model_hosting.gpu',
      'model_hosting.min_instances',
      'model_hosting.max_instances',
      'model_hosting.instances',
      'model_hosting.last_cold_start_ms',
      'model_hosting.message',
      'model_hosting.rollout_image',
      'model_hosting.rollout_status',
      'model_hosting.rollout_message',
      'model_hosting.updated_at',
    ])
    .where(by === 'hosted_model_id' ? 'model_hosting.hosted_model_id' : 'models.id', '=', value)
    .where('models.deleted_at', 'is', null)
    .executeTakeFirst();
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
