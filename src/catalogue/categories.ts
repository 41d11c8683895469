import { DOMAINS, type ModelCategory, type ModelDescriptor } from '../api/types';

// Categories and domains (product-rules §3, §5, §9).

/** product-rules §5: domains compare ignoring case and non-alphanumerics ('Image-' equals 'IMAGE'). */
export function normalizeDomain(domain: unknown): string {
  return String(domain ?? '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The category ids of a model. product-rules §3: model_category is a string, a list, or an object keyed
 * by category id. Lists may hold ids or `{ id }` objects; blanks are ignored.
 */
export function categoryIdsOf(model: Pick<ModelDescriptor, 'model_category'>): string[] {
  const value: unknown = model.model_category;
  if (value == null) return [];
  if (typeof value === 'string' || typeof value === 'number') {
    const id = String(value).trim();
    return id ? [id] : [];
  }
  if (Array.isArray(value)) {
    const ids: string[] = [];
    for (const entry of value) {
      const id =
        typeof entry === 'string' || typeof entry === 'number'
          ? String(entry).trim()
          : entry && typeof entry === 'object' && 'id' in entry
            ? String((entry as { id: unknown }).id).trim()
            : '';
      if (id && !ids.includes(id)) ids.push(id);
    }
    return ids;
  }
  if (typeof value === 'object') return Object.keys(value).filter((id) => id.trim() !== '');
  return [];
}

const categoryMaps = new WeakMap<readonly ModelCategory[], Map<string, ModelCategory>>();

/** Categories by id, memoised per categories array. */
export function categoriesById(categories: readonly ModelCategory[]): Map<string, ModelCategory> {
  let map = categoryMaps.get(categories);
  if (!map) {
    map = new Map(categories.map((c) => [String(c.id), c]));
    categoryMaps.set(categories, map);
  }
  return map;
}

/** The known categories of a model, in the model's order; unknown ids are dropped. */
export function resolveCategories(model: Pick<ModelDescriptor, 'model_category'>, categories: readonly ModelCategory[]): ModelCategory[] {
  const byId = categoriesById(categories);
  const out: ModelCategory[] = [];
  for (const id of categoryIdsOf(model)) {
    const category = byId.get(id);
    if (category) out.push(category);
  }
  return out;
}

export interface DomainFilter {
  inputDomains?: readonly string[];
  outputDomains?: readonly string[];
}

const toSet = (domains: readonly string[] | undefined) => new Set((domains ?? []).map(normalizeDomain).filter((d) => d !== ''));

/** Normalised domain filter sets; `null` when no domain filter is active. */
export function domainFilterSets(filter: DomainFilter): { input: Set<string>; output: Set<string> } | null {
  const input = toSet(filter.inputDomains);
  const output = toSet(filter.outputDomains);
  return input.size === 0 && output.size === 0 ? null : { input, output };
}

/**
 * product-rules §5: true when one single category satisfies both the input and the output filter. A
 * filter with several domains is satisfied by any of them. With no known category (none, or
 * only unknown ids) a model never passes an active filter.
 */
export function categoryMatchesDomains(category: ModelCategory, sets: { input: Set<string>; output: Set<string> }): boolean {
  const hits = (domains: unknown, wanted: Set<string>) =>
    wanted.size === 0 || (Array.isArray(domains) && domains.some((d) => wanted.has(normalizeDomain(d))));
  return hits(category.input_domain, sets.input) && hits(category.output_domain, sets.output);
}

/** Whether a model passes the domain filters (product-rules §5); always true when none is active. */
export function matchesDomainFilters(
  model: Pick<ModelDescriptor, 'model_category'>,
  categories: readonly ModelCategory[],
  filter: DomainFilter,
): boolean {
  const sets = domainFilterSets(filter);
  if (!sets) return true;
  return resolveCategories(model, categories).some((c) => categoryMatchesDomains(c, sets));
}

const domainRank = new Map<string, number>(DOMAINS.map((d, i) => [normalizeDomain(d), i]));

/** Display label of a domain: the spec's spelling for known ones, upper case otherwise. */
export function domainLabel(domain: string): string {
  const rank = domainRank.get(normalizeDomain(domain));
  return rank === undefined ? domain.trim().toUpperCase() : DOMAINS[rank]!;
}

/**
 * product-rules §9 domain display order: TEXT, AUDIO, IMAGE, VIDEO, ANIMATION, MISC, others last (in
 * alphabetical order). Duplicates that differ only in case or punctuation collapse into one.
 */
export function sortDomains(domains: Iterable<string>): string[] {
  const seen = new Map<string, string>();
  for (const domain of domains) {
    const key = normalizeDomain(domain);
    if (key && !seen.has(key)) seen.set(key, domainLabel(domain));
  }
  return Array.from(seen.entries())
    .sort(([a, la], [b, lb]) => {
      const ra = domainRank.get(a) ?? Infinity;
      const rb = domainRank.get(b) ?? Infinity;
      return ra !== rb ? ra - rb : la < lb ? -1 : la > lb ? 1 : 0;
    })
    .map(([, label]) => label);
}

/** The input and output domains used by the categories, each in display order. */
export function domainOptions(categories: readonly ModelCategory[]): { input: string[]; output: string[] } {
  return {
    input: sortDomains(categories.flatMap((c) => (Array.isArray(c.input_domain) ? c.input_domain : []))),
    output: sortDomains(categories.flatMap((c) => (Array.isArray(c.output_domain) ? c.output_domain : []))),
  };
}
