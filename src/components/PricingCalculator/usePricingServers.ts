import { useEffect, useMemo, useState } from 'react';
import type { PricingServer } from '../../api/types';
import { createModelManagementClient } from '../../api/modelManagement';
import { useApiClient } from '../../config/useApiClient';
import { preparePricingServers } from '../../pricing/servers';
import { BUNDLED_PRICING_SERVERS } from '../../pricing/pricingServersCache';

/** Where the shown list came from: given by the host, the bundled cache, or the live API. */
export type PricingServersSource = 'given' | 'cache' | 'live';

export interface UsePricingServersOptions {
  /** A list from the host: used as is (filtered and sorted), nothing is fetched. */
  servers?: readonly PricingServer[];
  /** Fetch `pricing_servers` after showing the bundled cache. */
  live?: boolean;
}

const cached = preparePricingServers(BUNDLED_PRICING_SERVERS);

/**
 * product-rules §4: pricing lists are preloaded from bundled cache, then replaced by live data (when the
 * answer has rows after filtering). A failed call keeps the cache silently. Either way only
 * the two third-party GPU providers' servers remain (product-rules §7), cheapest per second first (§9).
 */
export function usePricingServers({ servers, live = true }: UsePricingServersOptions = {}) {
  const modelManagement = useApiClient(createModelManagementClient);
  const [liveServers, setLiveServers] = useState<PricingServer[] | null>(null);
  const given = useMemo(() => (servers ? preparePricingServers(servers) : null), [servers]);

  useEffect(() => {
    if (servers || !live) return;
    let cancelled = false;
    modelManagement
      .pricingServers()
      .then((result) => {
        if (cancelled || !result.ok) return;
        const prepared = preparePricingServers(result.data);
        if (prepared.length > 0) setLiveServers(prepared);
      })
      .catch(() => {
        // The clients normalise failures into results; anything else leaves the cache shown.
      });
    return () => {
      cancelled = true;
    };
  }, [modelManagement, servers, live]);

  if (given) return { servers: given, source: 'given' as PricingServersSource };
  if (liveServers) return { servers: liveServers, source: 'live' as PricingServersSource };
  return { servers: cached, source: 'cache' as PricingServersSource };
}
