import { PRICING_PROVIDER_IDS } from '@limelight/rules';
import { createApiClient, type ClientOptions } from './http';
import type { ApiResult } from './result';
import type { HostingInformation, JobEstimateData, ModelCategory, ModelDescriptor, ModelPricingRow, PricingServer } from './types';

export const MODEL_MANAGEMENT_PREFIX = '/v1/model_management/';

/**
 * Identifiers of the two third-party GPU providers whose servers the pricing views keep
 * (product-rules §7 pricing_servers): the platform's rule (@limelight/rules).
 */
export { PRICING_PROVIDER_IDS };

/** Keeps the servers whose provider contains either third-party identifier (product-rules §7). */
export function keepThirdPartyPricingServers(servers: PricingServer[]): PricingServer[] {
  return servers.filter((s) =>
    PRICING_PROVIDER_IDS.some((id) =>
      String(s.provider ?? '')
        .toLowerCase()
        .includes(id),
    ),
  );
}

export type HostingLookup = { hosted_model_id?: string; model_id?: string };

/** The catalogue API client (`/v1/model_management/`); most calls need no sign-in. */
export function createModelManagementClient(options: ClientOptions) {
  const client = createApiClient({ ...options, prefix: MODEL_MANAGEMENT_PREFIX });
  return {
    client,
    modelCategories: () => client.get<ModelCategory[]>('model_categories', { auth: 'none' }),
    modelDescriptors: () => client.get<ModelDescriptor[]>('model_descriptors', { auth: 'optional' }),
    /** hosted_model_id wins over model_id; with neither, no call is made and null is returned. */
    modelHostingInformation: async (lookup: HostingLookup): Promise<ApiResult<HostingInformation> | null> => {
      const query = lookup.hosted_model_id
        ? { hosted_model_id: lookup.hosted_model_id }
        : lookup.model_id
          ? { model_id: lookup.model_id }
          : null;
      if (!query) return null;
      return client.get<HostingInformation>('model_hosting_information', { auth: 'required', query });
    },
    pricingServers: () => client.get<PricingServer[]>('pricing_servers', { auth: 'none' }),
    modelPricingTable: () => client.get<ModelPricingRow[]>('model_pricing_table', { auth: 'none' }),
  };
}

/** The catalogue API client (`/v1/model_management/`): services, categories, pricing servers, hosting information. */
export type ModelManagementClient = ReturnType<typeof createModelManagementClient>;

/**
 * The public price basis (`GET /v1/model_management/price_basis`): the service GPU's price per
 * second and the endpoint's measured run times; public services need no token. A client of its
 * own so the search bundle, which uses the catalogue calls only, does not carry it.
 */
export function createPriceBasisClient(options: ClientOptions) {
  const client = createApiClient({ ...options, prefix: MODEL_MANAGEMENT_PREFIX, defaultAuth: 'optional' });
  return (serviceId: string, endpoint?: string) =>
    client.get<JobEstimateData>('price_basis', { query: { service_id: serviceId, endpoint } });
}
