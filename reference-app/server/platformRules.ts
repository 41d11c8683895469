// Rules of the platform's business that only the server applies (product-rules §9, docs/jobs.md:
// metering). They are not the widgets' to export: a page embedding a widget never needs them,
// and publishing them in @limelight/widgets would make a business decision part of its API.

/** Private services each plan may host (Free 0, Plus 2, Pro 5, Enterprise unlimited). Public hosting is free on every plan. */
export const PRIVATE_SERVICE_LIMITS = { free: 0, plus: 2, pro: 5, enterprise: Number.POSITIVE_INFINITY } as const;

/** Share of a run's cost credited to the publisher of a public service (not for own runs). */
export const PUBLISHER_SHARE = 0.3;

/** The publisher's part of a charge, rounded down to the ledger's 4 decimals as payments/queries.ts books it in SQL (jobChargeCtes). */
export function publisherEarning(costCredits: number): number {
  return Math.floor(costCredits * PUBLISHER_SHARE * 10_000 + 1e-9) / 10_000;
}
