// Metering rules (docs/jobs.md: metering). The one place where GPU time turns into credits, used
// by the server when a job finishes and by the widget's estimate, so both always agree. The
// publisher's share of a charge is the platform's (reference-app/server/platformRules.ts).

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

// One number format for credits wherever they are shown (issue 39, item 4): grouped thousands and
// up to the ledger's 4 decimals, trailing zeros dropped (500, 0.0286, 12,345.5). A fixed locale,
// as the site's texts are English and a server-rendered page must read as the browser renders it.
const creditsFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
const signedCreditsFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4, signDisplay: 'exceptZero' });

/** A number of credits as every view shows it; `signed` adds a + to a credit (ledger entries). */
export function formatCredits(credits: number, { signed = false }: { signed?: boolean } = {}): string {
  return (signed ? signedCreditsFormat : creditsFormat).format(credits);
}
