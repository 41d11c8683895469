/** product-rules §9: calculator defaults. */
export const DEFAULT_REQUESTS_PER_HOUR = 100;
/** The pricing calculator's default execution time per request, milliseconds. */
export const DEFAULT_EXECUTION_MS = 300;

/** product-rules §9: a month is 24 hours x 30 days in the cost formula. */
export const HOURS_PER_DAY = 24;
export const DAYS_PER_MONTH = 30;

/**
 * "Absurdly large" (product-rules §9 leaves the bound open): a million requests an hour is ~280 a
 * second, far past any single service on a serverless plan; an hour per request is the longest
 * a serverless call runs. Past these an estimate means nothing, so the field says so.
 */
export const MAX_REQUESTS_PER_HOUR = 1_000_000;
export const MAX_EXECUTION_MS = 3_600_000;

/** product-rules §9: where a plan's button goes. */
export const BILLING_PATH = '/account/billing';
export const SIGN_UP_PATH = '/signinup?page_state=0';
