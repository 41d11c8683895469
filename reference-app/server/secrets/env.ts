import { createHash } from 'node:crypto';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { sealedValuesOf, setSecretsDeployed } from './queries';

// What the runner gives a container service's instances (docs/publishing.md, "Secrets"): every
// secret, opened. Read on each deploy (hosting/leasedFleet.ts), so a change reaches running
// instances on the next deploy, without a rebuild. Apart from publishing, so the hosting code
// needs nothing of the routes.

export interface SecretEnv {
  env: Record<string, string>;
  /** Names and times, hashed (no value): changes with every set or removal. */
  fingerprint: string;
}

/**
 * The secrets for a deploy, recorded as the ones deployed (service_runtimes.secrets_deployed):
 * the runner holding the deployment compares that record in its lease revision, so it applies a
 * deploy made by another process whose only change is the secrets (docs/deploy.md, "Several runners").
 */
export async function deployedSecretEnv(db: Db, box: SecretBox, serviceId: string): Promise<SecretEnv> {
  const rows = await sealedValuesOf(db, serviceId);
  const env: Record<string, string> = {};
  const hash = createHash('sha256');
  for (const row of rows) {
    env[row.name] = box.open(row.value_sealed);
    hash.update(`${row.name}\n${new Date(row.updated_at).toISOString()}\n`);
  }
  const fingerprint = hash.digest('hex').slice(0, 32);
  await setSecretsDeployed(db, serviceId, fingerprint);
  return { env, fingerprint };
}

/** The secrets opened, as the runner's renewal starts instances with them (no record). */
export async function secretEnvOf(db: Db, box: SecretBox, serviceId: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const row of await sealedValuesOf(db, serviceId)) env[row.name] = box.open(row.value_sealed);
  return env;
}
