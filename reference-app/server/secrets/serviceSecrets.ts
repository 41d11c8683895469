import { MAX_SECRET_VALUE_BYTES, MAX_SECRETS, secretNameProblem as nameProblem } from '@limelight/rules';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { conflict, forbidden, invalid, notFound } from '../errors';
import { countSecrets, deleteSecretRow, secretExists, selectSecretNames, selectServiceAccess, upsertSecret } from './queries';

// A container service's secrets (docs/publishing.md, "Secrets"): environment variables its
// containers get when they start, set by the owner by name. The value is sealed with the
// server's secret box (docs/security.md, "Secrets at rest") and never answered by any route,
// error or log line: what goes out is the name and its times. The runner opens them when it
// deploys (secrets/env.ts), so a change reaches the instances on the next deploy.

export interface SecretView {
  name: string;
  created_at: string;
  updated_at: string;
}

const viewOf = (row: { name: string; created_at: Date; updated_at: Date }): SecretView => ({
  name: row.name,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

/** Why `name` cannot be a secret's name (the rules' words, @limelight/rules), or null. */
export function secretNameProblem(name: string): string | null {
  const problem = nameProblem(name);
  return problem && `name: ${problem}`;
}

/** Why `value` cannot be stored, or null. Never quotes the value. */
export function secretValueProblem(value: string): string | null {
  if (value.length === 0) return 'value: empty; give the secret’s value';
  if (Buffer.byteLength(value, 'utf8') > MAX_SECRET_VALUE_BYTES) return `value: longer than ${MAX_SECRET_VALUE_BYTES} bytes`;
  if (value.includes('\0')) return 'value: contains a NUL character, which an environment variable cannot hold';
  return null;
}

/**
 * The owner only, answered as publishing answers (publishing/publishedServices.ts, ownedService):
 * another account's private service is not found, a public one is forbidden. Its own query, so
 * this folder needs nothing of publishing/ (the runner reads secrets/env.ts: no folder loop).
 */
async function ownedService(db: Db, serviceId: string, userId: string): Promise<void> {
  const row = await selectServiceAccess(db, serviceId);
  if (!row || (row.created_by !== userId && !row.is_public)) throw notFound(`No service ${serviceId}`);
  if (row.created_by !== userId) throw forbidden(`Only the owner can change the service ${serviceId}`);
}

function checkName(name: string): void {
  const problem = secretNameProblem(name);
  if (problem) throw invalid(problem);
}

export async function listSecrets(db: Db, serviceId: string, userId: string): Promise<SecretView[]> {
  await ownedService(db, serviceId, userId);
  return (await selectSecretNames(db, serviceId)).map(viewOf);
}

/** Sets (or replaces) one secret; answers its name and times, never the value. */
export async function setSecret(
  db: Db,
  box: SecretBox,
  serviceId: string,
  userId: string,
  name: string,
  value: string,
): Promise<SecretView> {
  checkName(name);
  const problem = secretValueProblem(value);
  if (problem) throw invalid(problem);
  await ownedService(db, serviceId, userId);
  if (!(await secretExists(db, serviceId, name)) && (await countSecrets(db, serviceId)) >= MAX_SECRETS) {
    throw conflict(`The service has ${MAX_SECRETS} secrets, the maximum; remove one first`);
  }
  return viewOf(await upsertSecret(db, serviceId, name, box.seal(value), new Date()));
}

export async function deleteSecret(db: Db, serviceId: string, userId: string, name: string): Promise<{ name: string }> {
  checkName(name);
  await ownedService(db, serviceId, userId);
  const deleted = await deleteSecretRow(db, serviceId, name);
  if (!deleted) throw notFound(`name: the service has no secret ${name}`);
  return deleted;
}
