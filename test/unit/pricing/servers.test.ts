import { describe, expect, it } from 'vitest';
import type { PricingServer } from '../../../src/api';
import { BUNDLED_PRICING_SERVERS } from '../../../src/pricing';
import { isUsablePricingServer, preparePricingServers, sortByPricePerSecond } from '../../../src/pricing/servers';

const server = (id: string, provider: string, vram: number, price: number, name = id): PricingServer => ({
  id,
  display_name: name,
  provider,
  physical_gpus: 1,
  gpu_vram_gb: vram,
  customer_price_per_s_usd: price,
});

describe('pricing servers (product-rules §7 pricing_servers, §9 GPU table)', () => {
  it('product-rules §9: sorts by price per second, cheapest first; ties by memory then name', () => {
    const sorted = sortByPricePerSecond([
      server('h100', 'runpod', 80, 0.00116),
      server('a4000', 'runpod', 16, 0.00016),
      server('b', 'runpod', 48, 0.00034, 'B'),
      server('a', 'runpod', 48, 0.00034, 'A'),
      server('t4', 'replicate', 16, 0.00034),
    ]);
    expect(sorted.map((s) => s.id)).toEqual(['a4000', 't4', 'a', 'b', 'h100']);
  });

  it('does not reorder its input', () => {
    const input = [server('x', 'runpod', 80, 2), server('y', 'runpod', 16, 1)];
    sortByPricePerSecond(input);
    expect(input.map((s) => s.id)).toEqual(['x', 'y']);
  });

  it('product-rules §7: keeps only servers whose provider contains either third-party identifier', () => {
    const prepared = preparePricingServers([
      server('1', 'runpod', 16, 0.0002),
      server('2', 'RunPod Secure Cloud', 24, 0.0003),
      server('3', 'replicate', 80, 0.0014),
      server('4', 'limelight', 24, 0.0001),
      server('5', 'lambda', 80, 0.0005),
      server('6', 'aws', 16, 0.00001),
    ]);
    expect(prepared.map((s) => s.id)).toEqual(['1', '2', '3']);
  });

  it('drops rows that would put NaN or Infinity on screen', () => {
    const rows: unknown[] = [
      server('ok', 'runpod', 16, 0.0002),
      server('nan', 'runpod', 16, Number.NaN),
      server('inf', 'runpod', 16, Number.POSITIVE_INFINITY),
      server('neg', 'runpod', 16, -1),
      server('novram', 'runpod', 0, 0.0002),
      { ...server('str', 'runpod', 16, 0.0002), customer_price_per_s_usd: '0.0002' },
      null,
      'runpod',
      { id: 'partial', provider: 'runpod' },
    ];
    expect(rows.filter(isUsablePricingServer).map((s) => s.id)).toEqual(['ok']);
    expect(preparePricingServers(rows).map((s) => s.id)).toEqual(['ok']);
    expect(preparePricingServers({ not: 'a list' })).toEqual([]);
  });

  it('product-rules §4: the bundled cache holds only the two providers, from A4000 16 GB, H200 141 GB included', () => {
    const prepared = preparePricingServers(BUNDLED_PRICING_SERVERS);
    expect(prepared).toHaveLength(BUNDLED_PRICING_SERVERS.length);
    expect(prepared.every((s) => /runpod|replicate/.test(s.provider))).toBe(true);
    expect(prepared[0]!.display_name).toContain('A4000 16 GB');
    expect(prepared.some((s) => s.display_name === 'H200 141 GB')).toBe(true);
    expect(new Set(prepared.map((s) => s.id)).size).toBe(prepared.length);
  });
});
