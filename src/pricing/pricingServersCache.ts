import type { PricingServer } from '../api/types';

/**
 * Bundled cache of `pricing_servers` (spec §4: pricing lists are preloaded from bundled cache,
 * then replaced by live data). Shown on first paint and whenever the API cannot be reached.
 * Mirrors the platform server's seed (the runpod and replicate rows only, which is all the views
 * keep); refresh it from the live endpoint when prices change.
 */
export const BUNDLED_PRICING_SERVERS: readonly PricingServer[] = [
  { id: 'runpod-a4000-16', display_name: 'RTX A4000 16 GB', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 16, customer_price_per_s_usd: 0.00016 },
  { id: 'runpod-l4-24', display_name: 'L4 24 GB', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 24, customer_price_per_s_usd: 0.00019 },
  { id: 'runpod-a5000-24', display_name: 'RTX A5000 24 GB', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 24, customer_price_per_s_usd: 0.00022 },
  { id: 'replicate-t4-16', display_name: 'T4 16 GB', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 16, customer_price_per_s_usd: 0.000225 },
  { id: 'runpod-4090-24', display_name: 'RTX 4090 24 GB', provider: 'runpod-secure', physical_gpus: 1, gpu_vram_gb: 24, customer_price_per_s_usd: 0.00031 },
  { id: 'runpod-a6000-48', display_name: 'RTX A6000 48 GB', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 48, customer_price_per_s_usd: 0.00034 },
  { id: 'runpod-l40s-48', display_name: 'L40S 48 GB', provider: 'runpod-secure', physical_gpus: 1, gpu_vram_gb: 48, customer_price_per_s_usd: 0.00053 },
  { id: 'runpod-a100-80', display_name: 'A100 80 GB', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.00076 },
  { id: 'replicate-l40s-48', display_name: 'L40S 48 GB', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 48, customer_price_per_s_usd: 0.000975 },
  { id: 'runpod-h100-80', display_name: 'H100 80 GB', provider: 'runpod-secure', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.00116 },
  { id: 'replicate-a100-80', display_name: 'A100 80 GB', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.0014 },
  { id: 'replicate-h100-80', display_name: 'H100 80 GB', provider: 'replicate', physical_gpus: 1, gpu_vram_gb: 80, customer_price_per_s_usd: 0.001525 },
  { id: 'runpod-h200-141', display_name: 'H200 141 GB', provider: 'runpod-secure', physical_gpus: 1, gpu_vram_gb: 141, customer_price_per_s_usd: 0.00155 },
  { id: 'runpod-2xh100-160', display_name: '2× H100 80 GB', provider: 'runpod-secure', physical_gpus: 2, gpu_vram_gb: 160, customer_price_per_s_usd: 0.00232 },
];
