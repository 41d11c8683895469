// http/'s public entry for tests outside test/unit (docs/testing.md, "Tests and the server's
// entries"): the catalogue cache and fast lane, the input guard, rate limits, the security
// headers and the error log's line.
export { CATALOGUE_CHANNEL, CATALOGUE_COUNTS_PREFIX, CATALOGUE_PATHS, type CatalogueCache } from './catalogueCache';
export { catalogueFastLane } from './catalogueFastLane';
export { clientAddressFrom } from './clientIp';
export { describeError } from './errorLog';
export { jsonDepth, MAX_JSON_DEPTH, pathAndQuery } from './inputGuard';
export { RateLimiter } from './rateLimit';
export { CONTENT_SECURITY_POLICY, HSTS } from './securityHeaders';
