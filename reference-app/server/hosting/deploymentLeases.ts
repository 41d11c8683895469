import type { Db } from '../db/types';
import * as queries from './queries';

// One manager per deployment across processes and hosts (docs/deploy.md, "Several runners"):
// a row per deployment names the runner that manages it until `expires_at`. The holder renews it
// every LEASE_RENEW_MS; a runner that dies stops renewing, and after LEASE_TTL_MS another takes
// it over. A lease rather than an advisory lock, so it works the same on PGlite and PostgreSQL
// and survives a connection pool handing out different connections. Expiry is computed by the
// database's clock, so hosts whose clocks disagree still agree on who holds a lease.

export const LEASE_TTL_MS = 15_000;
export const LEASE_RENEW_MS = 5_000;

/** Takes or renews the lease; true when `holder` holds it afterwards. */
export const claimLease = (db: Db, deploymentId: string, holder: string, ttlMs = LEASE_TTL_MS) =>
  queries.claimLease(db, deploymentId, holder, ttlMs);

export const { releaseLease, leaseHolder } = queries;
