import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

// The registry's storage quota per plan (docs/publishing.md, "The platform's registry"). The
// bytes a namespace holds are read from the registry's own storage directory: every layer, config
// and manifest blob linked from its repositories (docker/registry/v2/repositories/<handle>/…/
// _layers and _manifests/revisions), each counted once however many tags use it. Unfinished
// uploads are counted by the platform's proxy while they are written (registry/proxy.ts), which
// refuses the bytes that would pass the quota; the token endpoint also refuses push scope to a
// namespace already past it.

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

/** The blob a digest names in the registry's storage (only `sha256:<64 hex>`), or null. */
export function blobDataPath(storageDir: string, digest: string): string | null {
  const hex = /^sha256:([0-9a-f]{64})$/.exec(digest)?.[1];
  return hex ? path.join(v2(storageDir), 'blobs', 'sha256', hex.slice(0, 2), hex, 'data') : null;
}

/** An upload session's folder in the registry's storage. */
export const uploadDirOf = (storageDir: string, repository: string, uuid: string) =>
  path.join(v2(storageDir), 'repositories', repository, '_uploads', uuid);

/** The bytes of the distinct blobs (layers, configs, manifests) the namespace's repositories link to. */
export async function storedBytes(storageDir: string, handle: string): Promise<number> {
  const digests = new Set<string>();
  const linked = async (dir: string) => {
    for (const hex of await entries(path.join(dir, 'sha256'))) digests.add(hex);
  };
  const walk = async (dir: string): Promise<void> => {
    for (const name of await entries(dir)) {
      if (name === '_layers') await linked(path.join(dir, name));
      else if (name === '_manifests') await linked(path.join(dir, name, 'revisions'));
      else if (!name.startsWith('_')) await walk(path.join(dir, name));
    }
  };
  await walk(path.join(v2(storageDir), 'repositories', handle));
  let total = 0;
  for (const hex of digests) {
    if (!/^[0-9a-f]{64}$/.test(hex)) continue;
    const size = await stat(path.join(v2(storageDir), 'blobs', 'sha256', hex.slice(0, 2), hex, 'data')).then(
      (s) => s.size,
      () => 0,
    );
    total += size;
  }
  return total;
}

/**
 * Removes every unfinished upload in the storage (run before the registry starts): the proxy
 * counts an upload from its first byte, so one it did not see cannot be resumed or counted.
 */
export async function removeUnfinishedUploads(storageDir: string): Promise<number> {
  let removed = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const name of await entries(dir)) {
      if (name === '_uploads') {
        const sessions = await entries(path.join(dir, name));
        removed += sessions.length;
        await rm(path.join(dir, name), { recursive: true, force: true });
      } else if (!name.startsWith('_')) {
        await walk(path.join(dir, name));
      }
    }
  };
  await walk(path.join(v2(storageDir), 'repositories'));
  return removed;
}

/** The way out of a full quota, said with every refusal (docs/publishing.md, "Your images"). */
export const QUOTA_ADVICE = 'delete images (`limelight images rm NAME[:TAG]`, or Account → Hosting → Your images) or change plan';

/** Why the namespace may not push more, or null. */
export async function quotaProblem(storageDir: string, handle: string, plan: string, capMb?: number): Promise<string | null> {
  const quotaMb = registryQuotaMb(plan, capMb);
  const usedMb = (await storedBytes(storageDir, handle)) / 1024 / 1024;
  // At the quota nothing more can be written (registry/proxy.ts), so no push token is issued either.
  if (usedMb < quotaMb) return null;
  return `Registry storage quota exceeded: your images use ${usedMb.toFixed(1)} MB and your ${plan} plan allows ${quotaMb} MB; ${QUOTA_ADVICE}`;
}
