// Metering rules (docs/jobs.md: metering): how GPU time turns into credits is the platform's rule
// (@limelight/rules, packages/rules/src/metering.ts), shared with the server so the widget's
// estimate and the charge always agree. Re-exported here as @limelight/widgets/run has them.
export { CREDITS_PER_USD, creditsForRun } from '@limelight/rules';

// One number format for credits wherever they are shown (issue 39, item 4): grouped thousands and
// up to the ledger's 4 decimals, trailing zeros dropped (500, 0.0286, 12,345.5). A fixed locale,
// as the site's texts are English and a server-rendered page must read as the browser renders it.
const creditsFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
const signedCreditsFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4, signDisplay: 'exceptZero' });

// A balance (what an account holds, or holds back for running jobs) reads as money: at most 2
// decimals (issue 50, item 7: "Your balance: 97.8614 credits"). Prices and costs of a run keep the
// 4 decimals, where 0.0048 credits a second must not read as 0.
const balanceFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/**
 * A number of credits as every view shows it; `signed` adds a + to a credit (ledger entries),
 * `balance` rounds to 2 decimals for what an account holds (the balance line, the credits panel).
 */
export function formatCredits(credits: number, { signed = false, balance = false }: { signed?: boolean; balance?: boolean } = {}): string {
  return (balance ? balanceFormat : signed ? signedCreditsFormat : creditsFormat).format(credits);
}
