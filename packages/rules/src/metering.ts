// Metering rules (docs/jobs.md: metering). The one place where GPU time turns into credits, used
// by the server when a job finishes and by the widget's estimate, so both always agree, and the
// publisher's share of a charge (docs/publishing.md).

/** 1 credit = 0.01 EUR (the server's default credit price). */
export const EUR_PER_CREDIT = 0.01;
/** Fixed conversion of the USD GPU prices: 1 USD = 0.92 EUR, hence 92 credits per USD. */
export const EUR_PER_USD = 0.92;
/** Credits per US dollar of GPU time (92). */
export const CREDITS_PER_USD = Math.round(EUR_PER_USD / EUR_PER_CREDIT);

/** The ledger keeps 4 decimals; charges round up so a run is never free by rounding. */
const LEDGER_SCALE = 10_000;

export const roundUpCredits = (credits: number) => Math.ceil(credits * LEDGER_SCALE - 1e-9) / LEDGER_SCALE;

/** Credits for `gpuSeconds` on a GPU costing `pricePerSecondUsd`. */
export function creditsForRun(gpuSeconds: number, pricePerSecondUsd: number): number {
  if (!(gpuSeconds > 0) || !(pricePerSecondUsd > 0)) return 0;
  return roundUpCredits(gpuSeconds * pricePerSecondUsd * CREDITS_PER_USD);
}

/** Share of a run's cost credited to the publisher of a public service (not for own runs). */
export const PUBLISHER_SHARE = 0.3;

/** The publisher's part of a charge, rounded down to the ledger's 4 decimals as payments/queries.ts books it in SQL (jobChargeCtes). */
export function publisherEarning(costCredits: number): number {
  return Math.floor(costCredits * PUBLISHER_SHARE * LEDGER_SCALE + 1e-9) / LEDGER_SCALE;
}
