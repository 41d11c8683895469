import { sql } from 'kysely';
import type { Db } from '../db/types';

// Which GPU prices a service's runs: the GPU of its hosting record (model_hosting.gpu) matched
// to the pricing servers by name ("A5000 24 GB" matches "RTX A5000 24 GB"); when several
// providers offer it, the cheapest. Services without hosting run on the documented default.
export const DEFAULT_GPU = 'L4 24 GB';

export interface GpuPrice {
  gpu: string;
  pricePerSecondUsd: number;
}

const normalise = (column: string) => sql.raw(`lower(regexp_replace(${column}, '^RTX\\s+', '', 'i'))`);

export async function gpuPriceOf(q: Db, serviceId: string): Promise<GpuPrice> {
  const hosting = await q.selectFrom('model_hosting').select('gpu').where('model_id', '=', serviceId).executeTakeFirst();
  for (const gpu of hosting ? [hosting.gpu, DEFAULT_GPU] : [DEFAULT_GPU]) {
    const row = await q
      .selectFrom('pricing_servers')
      .select(['display_name', 'customer_price_per_s_usd'])
      .where(normalise('display_name'), '=', sql<string>`lower(regexp_replace(${gpu}, '^RTX\\s+', '', 'i'))`)
      .orderBy('customer_price_per_s_usd')
      .orderBy('id')
      .executeTakeFirst();
    if (row) return { gpu: row.display_name, pricePerSecondUsd: Number(row.customer_price_per_s_usd) };
  }
  // No pricing data at all (an empty pricing table): runs are free rather than impossible.
  return { gpu: DEFAULT_GPU, pricePerSecondUsd: 0 };
}
