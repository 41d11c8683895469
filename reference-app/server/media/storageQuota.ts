import type { Db } from '../db/types';
import { activePlanOf } from '../payments/queries';
import { snapshotBytesOf, storedBytesOf } from './queries';

// How many bytes of files a user may keep stored at once (uploads for job inputs and the media
// their jobs produced, until they expire), by plan. Without it one free account stored 100 MB in
// 3 s and could keep about 100 GB an hour for the retention period. See docs/security.md, "Limits".

export type StorageQuotas = Record<'free' | 'plus' | 'pro' | 'enterprise', number>;

const MB = 1024 * 1024;
export const DEFAULT_STORAGE_QUOTAS: StorageQuotas = {
  free: 1024 * MB,
  plus: 10 * 1024 * MB,
  pro: 50 * 1024 * MB,
  enterprise: 500 * 1024 * MB,
};

const asMb = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/** Why storing `size` more bytes would exceed the user's quota, or undefined when it fits. */
export async function storageQuotaProblem(db: Db, quotas: StorageQuotas, userId: string, size: number): Promise<string | undefined> {
  const plan = await activePlanOf(db, userId);
  const quota = quotas[plan as keyof StorageQuotas] ?? quotas.free;
  const [files, snapshots] = await Promise.all([storedBytesOf(db, userId), snapshotBytesOf(db, userId)]);
  const used = files + snapshots;
  if (used + size <= quota) return undefined;
  const ofSnapshots = snapshots > 0 ? ` (${asMb(snapshots)} of them your services' memory snapshots)` : '';
  return `file: your ${plan} plan stores up to ${asMb(quota)} of files at once and ${asMb(used)} are in use${ofSnapshots}; this file (${asMb(size)}) does not fit. Files expire after the retention period, or upgrade your plan`;
}
