import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as auth from './migrations/001_auth';
import * as platform from './migrations/002_platform';
import * as authHardening from './migrations/003_auth_hardening';
import * as platformSecurity from './migrations/004_platform_security';
import * as jobs from './migrations/005_jobs';
import * as catalogueVersion from './migrations/006_catalogue_version';
import * as services from './migrations/007_services';
import * as jobHolds from './migrations/008_job_holds';
import * as containerHosting from './migrations/009_container_hosting';
import * as webhookSecrets from './migrations/010_webhook_secrets';
import * as catalogueDeploymentState from './migrations/011_catalogue_deployment_state';
import * as jobPath from './migrations/012_job_path';
import * as creditBalances from './migrations/013_credit_balances';
import * as webhookEvents from './migrations/014_webhook_events';
import * as idempotencyKeys from './migrations/015_idempotency_keys';
import * as apiKeyNames from './migrations/016_api_key_names';
import * as invitedAt from './migrations/017_invited_at';
import * as serviceResources from './migrations/018_service_resources';
import * as rollouts from './migrations/019_rollouts';
import * as serviceSecrets from './migrations/020_service_secrets';
import * as serviceVersions from './migrations/021_service_versions';
import * as coldStartTier from './migrations/022_cold_start_tier';
import * as serviceSnapshot from './migrations/023_service_snapshot';
import type { Db } from './types';

// Versioned migrations, applied in name order at start. Each is a list of statements because
// PGlite runs one statement per query; Kysely wraps each migration in a transaction and holds
// an advisory lock, so several servers starting at once against one PostgreSQL are safe.
// Never edit a released migration: add the next numbered file.
const migrations: Record<string, readonly string[]> = {
  '001_auth': auth.statements,
  '002_platform': platform.statements,
  '003_auth_hardening': authHardening.statements,
  '004_platform_security': platformSecurity.statements,
  '005_jobs': jobs.statements,
  '006_catalogue_version': catalogueVersion.statements,
  '007_services': services.statements,
  '008_job_holds': jobHolds.statements,
  '009_container_hosting': containerHosting.statements,
  '010_webhook_secrets': webhookSecrets.statements,
  '011_catalogue_deployment_state': catalogueDeploymentState.statements,
  '012_job_path': jobPath.statements,
  '013_credit_balances': creditBalances.statements,
  '014_webhook_events': webhookEvents.statements,
  '015_idempotency_keys': idempotencyKeys.statements,
  '016_api_key_names': apiKeyNames.statements,
  '017_invited_at': invitedAt.statements,
  '018_service_resources': serviceResources.statements,
  '019_rollouts': rollouts.statements,
  '020_service_secrets': serviceSecrets.statements,
  '021_service_versions': serviceVersions.statements,
  '022_cold_start_tier': coldStartTier.statements,
  '023_service_snapshot': serviceSnapshot.statements,
};

/** A hash of the schema, part of the key under which prepared test databases are cached. */
export const schemaFingerprint = Object.entries(migrations)
  .map(([name, statements]) => `${name}:${statements.join(';')}`)
  .join('\n');

const provider: MigrationProvider = {
  async getMigrations() {
    const out: Record<string, Migration> = {};
    for (const [name, statements] of Object.entries(migrations)) {
      out[name] = {
        async up(db: Kysely<unknown>) {
          for (const statement of statements) await sql.raw(statement).execute(db);
        },
      };
    }
    return out;
  },
};

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** True when every known migration is recorded: the common case at start, answered cheaply. */
async function upToDate(db: Db, schema: string): Promise<boolean> {
  const table = await sql<{ name: string | null }>`select to_regclass(${`"${schema}".kysely_migration`})::text as name`.execute(db);
  if (!table.rows[0]?.name) return false;
  const applied = await sql<{ name: string }>`select name from ${sql.table(`${schema}.kysely_migration`)}`.execute(db);
  const names = new Set(applied.rows.map((r) => r.name));
  return Object.keys(migrations).every((name) => names.has(name));
}

/**
 * Applies every pending migration; returns the names applied now. `schema` is where the tables
 * live (the search_path's first schema): Kysely's own bookkeeping tables must be looked up
 * there, or it mistakes another schema's for ours.
 */
export async function migrateToLatest(db: Db, schema = 'public'): Promise<string[]> {
  if (await upToDate(db, schema)) return [];
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationError(`Migration ${failed} failed: ${(error as Error).message ?? error}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
