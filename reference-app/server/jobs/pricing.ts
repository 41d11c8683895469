import { DEFAULT_GPU } from '@limelight/rules';
import type { Db } from '../db/types';
import { selectGpuOffer, selectHostingGpu } from './queries';

// Which GPU prices a service's runs: the GPU of its hosting record (model_hosting.gpu) matched
// to the pricing servers by name ("A5000 24 GB" matches "RTX A5000 24 GB"); when several
// providers offer it, the cheapest. Services without hosting run on the documented default
// (DEFAULT_GPU, the platform's rule in @limelight/rules).

export interface GpuPrice {
  gpu: string;
  pricePerSecondUsd: number;
}

export async function gpuPriceOf(q: Db, serviceId: string): Promise<GpuPrice> {
  const hosting = await selectHostingGpu(q, serviceId);
  for (const gpu of hosting ? [hosting.gpu, DEFAULT_GPU] : [DEFAULT_GPU]) {
    const row = await selectGpuOffer(q, gpu);
    if (row) return { gpu: row.display_name, pricePerSecondUsd: Number(row.customer_price_per_s_usd) };
  }
  // No pricing data at all (an empty pricing table): runs are free rather than impossible.
  return { gpu: DEFAULT_GPU, pricePerSecondUsd: 0 };
}
