import type { PricingServer } from '../api/types';

/**
 * Bundled cache of `pricing_servers` (spec §4: pricing lists are preloaded from bundled cache,
 * then replaced by live data). Shown on first paint and whenever the API cannot be reached.
 * Refresh it from the live endpoint when prices change.
 */
export const BUNDLED_PRICING_SERVERS: readonly PricingServer[] = [
  { id: 'runpod-a4000', display_name: 'RTX A4000', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 16, customer_price_per_s_usd: 0.00016 },
  { id: 'replicate-t4', display_name: 'T4', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 16, customer_price_per_s_usd: 0.000225 },
  { id: 'runpod-a5000', display_name: 'RTX A5000', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 24, customer_price_per_s_usd: 0.00019 },
  { id: 'runpod-4090', display_name: 'RTX 4090', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 24, customer_price_per_s_usd: 0.00031 },
  { id: 'runpod-a6000', display_name: 'RTX A6000', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 48, customer_price_per_s_usd: 0.00034 },
  { id: 'runpod-l40s', display_name: 'L40S', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 48, customer_price_per_s_usd: 0.00053 },
  { id: 'replicate-l40s', display_name: 'L40S', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 48, customer_price_per_s_usd: 0.000975 },
  { id: 'runpod-a100', display_name: 'A100', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.00076 },
  { id: 'replicate-a100', display_name: 'A100', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.0014 },
  { id: 'runpod-h100', display_name: 'H100', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.00116 },
  { id: 'replicate-h100', display_name: 'H100', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.001525 },
  { id: 'runpod-h200', display_name: 'H200', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 141, customer_price_per_s_usd: 0.00155 },
];
