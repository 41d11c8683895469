import { useEffect, useState } from 'react';

/** product-rules §7: on failure the defaults 253 stars and 34 forks are kept. */
export const DEFAULT_REPO_STATS = { stars: 253, forks: 34 };
const STAR_COUNTER_URL = 'https://api.github.com/repos/limelight-ai/limelight';

export function useRepoStats(url = STAR_COUNTER_URL) {
  const [stats, setStats] = useState(DEFAULT_REPO_STATS);
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 4000);
    fetch(url, { signal: controller.signal })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((body: { stargazers_count?: unknown; forks_count?: unknown }) => {
        if (typeof body.stargazers_count === 'number' && typeof body.forks_count === 'number') {
          setStats({ stars: body.stargazers_count, forks: body.forks_count });
        }
      })
      .catch(() => {
        /* keep the defaults: the counter is decoration, never an error for the visitor */
      })
      .finally(() => clearTimeout(timer));
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [url]);
  return stats;
}
