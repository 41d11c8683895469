import { GPU_PRICES } from '@limelight/rules';
import type { PricingServer } from '../api/types';
import { preparePricingServers } from './servers';

/**
 * Bundled cache of `pricing_servers` (product-rules §4: pricing lists are preloaded from bundled cache,
 * then replaced by live data). Shown on first paint and whenever the API cannot be reached.
 * The platform's GPU price table (@limelight/rules), which the server seeds too, as the views
 * keep it: the runpod and replicate rows, cheapest first. A price changes there, not here.
 */
export const BUNDLED_PRICING_SERVERS: readonly PricingServer[] = preparePricingServers(GPU_PRICES);
