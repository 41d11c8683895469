import { log } from '../log';

// The home page's star counter (product-rules §7), read by the server from the public GitHub API
// and kept, so the visitor's browser calls no outside host (CSP connect-src 'self'). A page never
// waits for it: it shows what is known (the defaults until the first answer), and a stale value
// starts a refresh in the background.

export interface RepoStats {
  stars: number;
  forks: number;
}

/** product-rules §7: on failure the defaults 253 stars and 34 forks are kept. */
export const DEFAULT_REPO_STATS: RepoStats = { stars: 253, forks: 34 };
export const STAR_COUNTER_URL = 'https://api.github.com/repos/limelight-ai/limelight';
const FRESH_MS = 60 * 60_000;
/** After a failure (no network, rate limit) the next try waits this long. */
const RETRY_MS = 10 * 60_000;
const TIMEOUT_MS = 4_000;

export interface RepoStatsSource {
  /** The latest known counts (the defaults before any answer); refreshes them when stale. */
  current(): RepoStats;
  /** The refresh in flight, if any (for tests). */
  settled(): Promise<void>;
}

export function repoStatsSource(url = STAR_COUNTER_URL, fetchImpl: typeof fetch = fetch, now = Date.now): RepoStatsSource {
  let stats = DEFAULT_REPO_STATS;
  let nextAt = 0;
  let pending: Promise<void> = Promise.resolve();
  let running = false;

  async function refresh(): Promise<void> {
    try {
      const response = await fetchImpl(url, {
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: { Accept: 'application/vnd.github+json' },
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = (await response.json()) as { stargazers_count?: unknown; forks_count?: unknown };
      if (typeof body.stargazers_count !== 'number' || typeof body.forks_count !== 'number') throw new Error('no counts in the answer');
      stats = { stars: body.stargazers_count, forks: body.forks_count };
      nextAt = now() + FRESH_MS;
    } catch (error) {
      nextAt = now() + RETRY_MS;
      log.debug({ err: error }, 'star counter: keeping the last counts');
    } finally {
      running = false;
    }
  }

  return {
    current() {
      if (!running && now() >= nextAt) {
        running = true;
        pending = refresh();
      }
      return stats;
    },
    settled: () => pending,
  };
}
