import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

// The registry's storage quota per plan (docs/publishing.md, "The platform's registry"). The
// bytes a namespace holds are read from the registry's own storage directory: every layer and
// config blob linked from its repositories (docker/registry/v2/repositories/<handle>/…/_layers),
// each counted once however many tags use it. The token endpoint refuses push scope once the
// namespace holds more than the plan allows; a push already under way may go past it once,
// the next one is refused (the check runs when the push asks for its token).

export const REGISTRY_QUOTA_MB = { free: 2_048, plus: 10_240, pro: 51_200, enterprise: 204_800 } as const;

export function registryQuotaMb(plan: string, capMb?: number): number {
  const quota = REGISTRY_QUOTA_MB[plan as keyof typeof REGISTRY_QUOTA_MB] ?? REGISTRY_QUOTA_MB.free;
  return capMb === undefined ? quota : Math.min(quota, capMb);
}

const v2 = (storageDir: string) => path.join(storageDir, 'docker', 'registry', 'v2');

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/** The bytes of the distinct blobs the namespace's repositories link to. */
export async function storedBytes(storageDir: string, handle: string): Promise<number> {
  const digests = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    for (const name of await entries(dir)) {
      if (name === '_layers') {
        for (const hex of await entries(path.join(dir, name, 'sha256'))) digests.add(hex);
      } else if (!name.startsWith('_')) {
        await walk(path.join(dir, name));
      }
    }
  };
  await walk(path.join(v2(storageDir), 'repositories', handle));
  let total = 0;
  for (const hex of digests) {
    const size = await stat(path.join(v2(storageDir), 'blobs', 'sha256', hex.slice(0, 2), hex, 'data')).then(
      (s) => s.size,
      () => 0,
    );
    total += size;
  }
  return total;
}

/** The way out of a full quota, said with every refusal (docs/publishing.md, "Your images"). */
export const QUOTA_ADVICE = 'delete images (`limelight images rm NAME[:TAG]`, or Account → Hosting → Your images) or change plan';

/** Why the namespace may not push more, or null. */
export async function quotaProblem(storageDir: string, handle: string, plan: string, capMb?: number): Promise<string | null> {
  const quotaMb = registryQuotaMb(plan, capMb);
  const usedMb = (await storedBytes(storageDir, handle)) / 1024 / 1024;
  if (usedMb <= quotaMb) return null;
  return `Registry storage quota exceeded: your images use ${usedMb.toFixed(1)} MB and your ${plan} plan allows ${quotaMb} MB; ${QUOTA_ADVICE}`;
}
