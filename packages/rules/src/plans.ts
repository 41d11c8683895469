// What each plan allows (product-rules §9). Plans' prices and texts are the widgets' and the
// seed's; these are the limits the server enforces.

/** Private services each plan may host (Free 0, Plus 2, Pro 5, Enterprise unlimited). Public hosting is free on every plan. */
export const PRIVATE_SERVICE_LIMITS = { free: 0, plus: 2, pro: 5, enterprise: Number.POSITIVE_INFINITY } as const;

/** product-rules §9: an API key's lifetime when its owner picks none, in days. */
export const API_KEY_DEFAULT_LIFETIME_DAYS = 183;
