import type { ModelDescriptor } from '../api/types';
import { FEATURED_LIMIT } from './constants';

const featuredRank = (m: Pick<ModelDescriptor, 'sort_idx_featured'>) =>
  typeof m.sort_idx_featured === 'number' && Number.isFinite(m.sort_idx_featured) ? m.sort_idx_featured : Infinity;

/**
 * product-rules §9: featured models are at most 18, sorted by sort_idx_featured with missing indexes
 * last; equal indexes keep the catalogue's order.
 */
export function selectFeatured<T extends Pick<ModelDescriptor, 'sort_idx_featured'>>(
  models: readonly T[],
  limit: number = FEATURED_LIMIT,
): T[] {
  return models
    .map((model, index) => ({ model, index, rank: featuredRank(model) }))
    .sort((a, b) => (a.rank === b.rank ? a.index - b.index : a.rank < b.rank ? -1 : 1))
    .slice(0, Math.max(0, limit))
    .map((entry) => entry.model);
}

const createdAt = (m: Pick<ModelDescriptor, 'created_at'>) => {
  const t = m.created_at ? Date.parse(m.created_at) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
};

/**
 * product-rules §4: the user's own models are those whose created_by equals their user id, newest first
 * by created_at (undated last).
 */
export function ownModels<T extends Pick<ModelDescriptor, 'created_by' | 'created_at'>>(
  models: readonly T[],
  userId: string | null | undefined,
): T[] {
  if (!userId) return [];
  return models
    .map((model, index) => ({ model, index, t: createdAt(model) }))
    .filter((e) => e.model.created_by === userId)
    .sort((a, b) => (a.t === b.t ? a.index - b.index : a.t > b.t ? -1 : 1))
    .map((e) => e.model);
}
