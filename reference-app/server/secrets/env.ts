import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { sealedValuesOf } from './queries';

// What the runner gives a container service's instances (docs/publishing.md, "Secrets"): every
// secret, opened. Read on each deploy (hosting/leasedFleet.ts), so a change reaches running
// instances on the next deploy, without a rebuild. Apart from publishing, so the hosting code
// needs nothing of the routes.

export async function secretEnvOf(db: Db, box: SecretBox, serviceId: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const row of await sealedValuesOf(db, serviceId)) env[row.name] = box.open(row.value_sealed);
  return env;
}
