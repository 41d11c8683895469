import { conflict, notFound } from '../errors';
import type { SecretBox } from '../crypto/secretBox';
import { isUniqueViolation } from '../db/errors';
import type { Db } from '../db/types';
import {
  countCredentials,
  deleteCredentialRow,
  findCredentialId,
  selectCredentials,
  selectSealedCredential,
  upsertCredential,
} from './queries';

// Container-registry access tokens: sealed at rest with the server's secret box, returned only
// masked (the last four characters), never in full.

export const MAX_CREDENTIALS = 20;

export interface CredentialInput {
  platform: 'dockerhub';
  credential_alias: string;
  foreign_username: string;
  pat: string;
}

const maskPat = (last4: string) => `${'•'.repeat(8)}${last4}`;

function viewOf(r: { id: string; platform: string; credential_alias: string; foreign_username: string; pat_last4: string }) {
  return {
    id: r.id,
    alias: `${r.platform}/${r.credential_alias}`,
    foreign_username: r.foreign_username,
    credential_alias: r.credential_alias,
    pat: maskPat(r.pat_last4),
    platform: 'dockerhub' as const,
  };
}

export async function listCredentials(db: Db, userId: string) {
  return (await selectCredentials(db, userId)).map(viewOf);
}

/** Stores a token under its alias (the same alias replaces it); 409 once the user has MAX_CREDENTIALS. */
export async function saveCredential(db: Db, box: SecretBox, userId: string, input: CredentialInput) {
  const existing = await findCredentialId(db, userId, input.platform, input.credential_alias);
  if (!existing && (await countCredentials(db, userId)) >= MAX_CREDENTIALS) {
    throw conflict(`You have ${MAX_CREDENTIALS} registry credentials, the maximum; delete one first`);
  }
  try {
    const row = await upsertCredential(
      db,
      { user_id: userId, platform: input.platform, credential_alias: input.credential_alias },
      { foreign_username: input.foreign_username, pat_enc: box.seal(input.pat), pat_last4: input.pat.slice(-4), updated_at: new Date() },
    );
    return viewOf(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('credential_alias: saved by a concurrent request; retry');
    throw error;
  }
}

export async function deleteCredential(db: Db, userId: string, id: string): Promise<{ id: string }> {
  const deleted = await deleteCredentialRow(db, userId, id);
  if (!deleted) throw notFound(`pat_id: no registry credential ${id} among yours`);
  return deleted;
}

/** Registry hosts of the platforms a credential can be for. */
const REGISTRY_OF_PLATFORM: Record<string, string> = { dockerhub: 'docker.io' };

/** A credential opened for a container runner to pull with; undefined when it is gone. */
export async function openCredential(db: Db, box: SecretBox, id: string) {
  const row = await selectSealedCredential(db, id);
  if (!row) return undefined;
  return { registry: REGISTRY_OF_PLATFORM[row.platform] ?? row.platform, username: row.foreign_username, password: box.open(row.pat_enc) };
}
