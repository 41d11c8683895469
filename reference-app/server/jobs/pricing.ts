import { CPU_PRICE, DEFAULT_GPU, gpuPricePerSecond } from '@limelight/rules';
import type { Db } from '../db/types';
import type { Hardware } from '../hosting/runtimeRegistry';
import { selectGpuOffer, selectHostingGpu } from './queries';

// Which GPU prices a service's runs: the GPU of its hosting record (model_hosting.gpu) matched
// to the pricing servers by id (a container service's offer) or by name ("A5000 24 GB" matches
// "RTX A5000 24 GB"; when several providers offer it, the cheapest), times the GPUs each of its
// instances holds (`resources.gpu`, docs/publishing.md "Resources"; gpuPricePerSecond). Services
// without hosting run on the documented default (DEFAULT_GPU, the platform's rule in @limelight/rules).

export interface GpuPrice {
  gpu: string;
  pricePerSecondUsd: number;
}

export async function gpuPriceOf(q: Db, serviceId: string): Promise<GpuPrice> {
  const hosting = await selectHostingGpu(q, serviceId);
  for (const gpu of hosting ? [hosting.gpu, DEFAULT_GPU] : [DEFAULT_GPU]) {
    const row = await selectGpuOffer(q, gpu);
    if (!row) continue;
    const count = gpu === hosting?.gpu ? (hosting.gpu_count ?? 0) : 0;
    return {
      gpu: count > 1 ? `${count} × ${row.display_name}` : row.display_name,
      pricePerSecondUsd: gpuPricePerSecond(Number(row.customer_price_per_s_usd), count),
    };
  }
  // No pricing data at all (an empty pricing table): runs are free rather than impossible.
  return { gpu: DEFAULT_GPU, pricePerSecondUsd: 0 };
}

/** The price of a run and what it runs on: the GPU's name, or "CPU", or "Demo". */
export interface RunPrice extends GpuPrice {
  hardware: Hardware;
}

/**
 * What a run of the service costs per second on `hardware` (docs/jobs.md: metering): a demo run
 * is free (its output is a placeholder), a CPU model's run is priced at the CPU tier
 * (@limelight/rules CPU_PRICE), every other run at its GPU's price (gpuPriceOf).
 */
export async function runPriceOf(q: Db, serviceId: string, hardware: Hardware): Promise<RunPrice> {
  if (hardware === 'demo') return { gpu: 'Demo', pricePerSecondUsd: 0, hardware };
  if (hardware === 'cpu') return { gpu: CPU_PRICE.display_name, pricePerSecondUsd: CPU_PRICE.customer_price_per_s_usd, hardware };
  return { ...(await gpuPriceOf(q, serviceId)), hardware };
}
