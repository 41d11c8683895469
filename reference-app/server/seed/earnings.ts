import { CREDITS_PER_USD, publisherEarning } from '@limelight/rules';
import { SEED_MODELS, type SeedModel } from './models';

// The seeded publisher's earnings, derived from the run counts the catalogue shows, so the
// hosting page never says "0 credits" beside 12,345 runs: each run of a public service paid its
// price and the publisher's share of it (docs/jobs.md: metering), booked as earning entries spread
// over the months the service has existed. Private services earn nothing (only their owner runs them).

/** Seconds a per-second-priced seeded run is assumed to take. */
export const SEEDED_RUN_SECONDS = 2;

/** The ledger reference of a seeded earning: `seed:earning:<service id>:<month>`. */
export const seedEarningReference = (serviceId: string, month: number) => `seed:earning:${serviceId}:${month}`;

/** What the publisher earned from all seeded runs of a model, in credits. */
export function seededEarnings(model: Pick<SeedModel, 'runs' | 'price' | 'isPrivate'>): number {
  if (model.isPrivate || model.runs <= 0) return 0;
  const usdPerRun = model.price.unit === 'request' ? model.price.usd : model.price.usd * SEEDED_RUN_SECONDS;
  return publisherEarning(model.runs * usdPerRun * CREDITS_PER_USD);
}

/**
 * The earning entries of the publisher's public services: the total of each split into monthly
 * entries (at most 6, over the service's age), the cents rounded so the entries add up exactly.
 */
export function seededEarningEntries(): Array<{ serviceId: string; amount: number; daysAgo: number; reference: string }> {
  const entries: Array<{ serviceId: string; amount: number; daysAgo: number; reference: string }> = [];
  for (const model of SEED_MODELS.filter((m) => m.owner === 'publisher')) {
    const total = seededEarnings(model);
    if (total <= 0) continue;
    const months = Math.max(1, Math.min(6, Math.floor(model.days / 30)));
    const share = Math.floor((total / months) * 100) / 100;
    for (let month = 0; month < months; month++) {
      const amount = month === months - 1 ? Math.round((total - share * (months - 1)) * 10_000) / 10_000 : share;
      entries.push({ serviceId: model.id, amount, daysAgo: 1 + month * 30, reference: seedEarningReference(model.id, month) });
    }
  }
  return entries;
}
