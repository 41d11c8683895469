import type { ModelDescriptor } from '@limelight/widgets/api';

// The home page's featured row (product-rules §9): which services it
// shows and how it lays them out. Only this page uses these rules, so they live beside it rather
// than in the widgets' public /catalogue entry.

/** Featured services shown at most. */
export const FEATURED_LIMIT = 18;
/** Characters of a featured card's description before it is cut. */
export const FEATURED_DESCRIPTION_MAX = 60;
/** Placeholder cards the featured row shows while the catalogue loads. */
export const FEATURED_PLACEHOLDERS = 6;
/** A marquee with fewer items than this is a static row. */
export const MARQUEE_MIN_ITEMS = 4;

const featuredRank = (m: Pick<ModelDescriptor, 'sort_idx_featured'>) =>
  typeof m.sort_idx_featured === 'number' && Number.isFinite(m.sort_idx_featured) ? m.sort_idx_featured : Infinity;

/**
 * Featured services are at most 18, sorted by sort_idx_featured with missing indexes
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
