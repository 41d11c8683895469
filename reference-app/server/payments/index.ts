// payments/'s public entry for tests outside test/unit (docs/testing.md, "Tests and the server's
// entries"): the ledger's one writer, and the hosting quotas of each plan.
export { HOSTING_QUOTAS } from './hostingQuotas';
export { addEntry } from './ledger';
