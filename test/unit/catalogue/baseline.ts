// The straightforward use of fuse.js: one Fuse instance over the whole catalogue, searched per
// query, then the spec's ranking. The engine in src/catalogue must return exactly this.
import Fuse from 'fuse.js';
import type { ModelCategory, ModelDescriptor } from '../../../src/api/types';
import { type SearchFilters } from '../../../src/catalogue';
import { matchesDomainFilters } from '../../../src/catalogue/categories';
import { normalizeFilters } from '../../../src/catalogue/filters';
import { FUSE_OPTIONS, comparatorFor, browseRankEntry, rankBase, searchFields, searchRankEntry } from '../../../src/catalogue/ranking';

export class BaselineSearch {
  readonly fuse: Fuse<ModelDescriptor>;
  constructor(
    readonly models: readonly ModelDescriptor[],
    readonly categories: readonly ModelCategory[],
  ) {
    this.fuse = new Fuse(models as ModelDescriptor[], FUSE_OPTIONS);
  }

  /** fuse.js matches as { index, score }, in fuse.js's own order. */
  matches(query: string): Array<{ index: number; score: number }> {
    return this.fuse.search(query).map((r) => ({ index: r.refIndex, score: r.score ?? 0 }));
  }

  search(filters: Partial<SearchFilters>, now: number): ModelDescriptor[] {
    const f = normalizeFilters(filters);
    const visible = (i: number) => matchesDomainFilters(this.models[i]!, this.categories, f);
    const query = f.query.trim();
    const entries = query
      ? this.matches(query)
          .filter((m) => visible(m.index))
          .map((m) => {
            const model = this.models[m.index]!;
            const fields = searchFields(model);
            return searchRankEntry(model, m.index, rankBase(model, fields), fields, query.toLowerCase(), m.score);
          })
      : this.models
          .map((model, i) => ({ model, i }))
          .filter(({ i }) => visible(i))
          .map(({ model, i }) => browseRankEntry(model, i, rankBase(model, searchFields(model)), now));
    return entries.sort(comparatorFor(f.sort, Boolean(query))).map((e) => e.model);
  }
}

/** One-shot baseline: builds the Fuse instance and searches once. */
export function searchModelsBaseline(
  models: readonly ModelDescriptor[],
  categories: readonly ModelCategory[],
  filters: Partial<SearchFilters>,
  now: number,
): ModelDescriptor[] {
  return new BaselineSearch(models, categories).search(filters, now);
}
