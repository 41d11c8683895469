// Metering rules (docs/jobs.md: metering): how GPU time turns into credits is the platform's rule
// (@limelight/rules, packages/rules/src/metering.ts), shared with the server so the widget's
// estimate and the charge always agree. Re-exported here as @limelight/widgets/run has them.
export { CREDITS_PER_USD, creditsForRun } from '@limelight/rules';

// One number format for credits wherever they are shown (issue 39, item 4): grouped thousands and
// up to the ledger's 4 decimals, trailing zeros dropped (500, 0.0286, 12,345.5). A fixed locale,
// as the site's texts are English and a server-rendered page must read as the browser renders it.
const creditsFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
const signedCreditsFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4, signDisplay: 'exceptZero' });

/** A number of credits as every view shows it; `signed` adds a + to a credit (ledger entries). */
export function formatCredits(credits: number, { signed = false }: { signed?: boolean } = {}): string {
  return (signed ? signedCreditsFormat : creditsFormat).format(credits);
}
