import { CPU_PRICE } from '@limelight/rules';
import type { PricingServer } from '../api/types';

/**
 * The CPU tier as a row of the pricing views (docs/jobs.md: metering): the services whose model
 * runs on the platform's CPU are billed per CPU-second at @limelight/rules' CPU_PRICE, in the
 * GPU table's units. Memory 0: it has no GPU, which is how the calculator's chip and the table
 * tell it from the GPU offers.
 */
export const CPU_TIER_SERVER: PricingServer = {
  id: CPU_PRICE.id,
  display_name: CPU_PRICE.display_name,
  provider: 'limelight',
  physical_gpus: 0,
  gpu_vram_gb: 0,
  customer_price_per_s_usd: CPU_PRICE.customer_price_per_s_usd,
};

/** Whether a pricing row is the CPU tier. */
export const isCpuTier = (server: Pick<PricingServer, 'id'>) => server.id === CPU_PRICE.id;
