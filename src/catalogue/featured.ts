import type { ModelDescriptor } from '../api/types';

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
