import { usePublicData } from '../../ssr/publicData';

/** product-rules §7: on failure the defaults 253 stars and 34 forks are kept. */
export const DEFAULT_REPO_STATS = { stars: 253, forks: 34 };

/**
 * The repository's stars and forks. The server reads the public GitHub API and caches it
 * (server/site/repoStats.ts), and hands the numbers over with the page, so the visitor's browser
 * never calls an outside host; without them (a page opened by client navigation) the defaults.
 */
export function useRepoStats() {
  return usePublicData()?.repo ?? DEFAULT_REPO_STATS;
}
