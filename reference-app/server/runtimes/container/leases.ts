import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';

// One manager per deployment across processes and hosts (docs/deploy.md, "Several runners"):
// a row per deployment names the runner that manages it until `expires_at`. The holder renews it
// every LEASE_RENEW_MS; a runner that dies stops renewing, and after LEASE_TTL_MS another takes
// it over. A lease rather than an advisory lock, so it works the same on PGlite and PostgreSQL
// and survives a connection pool handing out different connections.

export const LEASE_TTL_MS = 15_000;
export const LEASE_RENEW_MS = 5_000;

/**
 * Takes or renews the lease; true when `holder` holds it afterwards. One statement, so two
 * runners racing for an expired lease cannot both win.
 */
export async function claimLease(db: Kysely<Database>, deploymentId: string, holder: string, ttlMs = LEASE_TTL_MS): Promise<boolean> {
  const expires = new Date(Date.now() + ttlMs);
  const row = await db
    .insertInto('deployment_leases')
    .values({ deployment_id: deploymentId, holder, expires_at: expires })
    .onConflict((oc) =>
      oc
        .column('deployment_id')
        .doUpdateSet({ holder, expires_at: expires })
        .where((eb) => eb.or([eb('deployment_leases.holder', '=', holder), eb('deployment_leases.expires_at', '<', sql<Date>`now()`)])),
    )
    .returning('holder')
    .executeTakeFirst();
  return row?.holder === holder;
}

/** Gives the lease up (a clean shutdown or a deleted deployment), so another runner need not wait. */
export async function releaseLease(db: Kysely<Database>, deploymentId: string, holder: string): Promise<void> {
  await db.deleteFrom('deployment_leases').where('deployment_id', '=', deploymentId).where('holder', '=', holder).execute();
}

export async function leaseHolder(db: Kysely<Database>, deploymentId: string): Promise<string | null> {
  const row = await db
    .selectFrom('deployment_leases')
    .select('holder')
    .where('deployment_id', '=', deploymentId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.holder ?? null;
}
