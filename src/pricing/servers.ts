import { keepThirdPartyPricingServers } from '../api/modelManagement';
import type { PricingServer } from '../api/types';

/** A row the calculator can use: a name and finite, non-negative memory and price. */
export function isUsablePricingServer(server: unknown): server is PricingServer {
  if (!server || typeof server !== 'object') return false;
  const s = server as Partial<PricingServer>;
  return (
    typeof s.id === 'string' &&
    typeof s.display_name === 'string' &&
    typeof s.provider === 'string' &&
    typeof s.gpu_vram_gb === 'number' &&
    Number.isFinite(s.gpu_vram_gb) &&
    s.gpu_vram_gb > 0 &&
    typeof s.customer_price_per_s_usd === 'number' &&
    Number.isFinite(s.customer_price_per_s_usd) &&
    s.customer_price_per_s_usd >= 0
  );
}

/**
 * product-rules §9: the GPU table is sorted by price per second, cheapest first. Equal prices keep a
 * stable order: smaller memory first, then by name.
 */
export function sortByPricePerSecond(servers: readonly PricingServer[]): PricingServer[] {
  return [...servers].sort(
    (a, b) =>
      a.customer_price_per_s_usd - b.customer_price_per_s_usd ||
      a.gpu_vram_gb - b.gpu_vram_gb ||
      a.display_name.localeCompare(b.display_name),
  );
}

/**
 * What the pricing views show from a `pricing_servers` answer: usable rows of the two
 * third-party GPU providers (product-rules §7), sorted by price per second (product-rules §9).
 */
export function preparePricingServers(servers: unknown): PricingServer[] {
  if (!Array.isArray(servers)) return [];
  return sortByPricePerSecond(keepThirdPartyPricingServers(servers.filter(isUsablePricingServer)));
}
