import { useState } from 'react';
import { createModelManagementClient } from '@limelight/widgets/api';
import { createApiCatalogueLoader, createCatalogue, type Catalogue } from '@limelight/widgets/catalogue';
import { usePlatform } from '@limelight/widgets/platform';
import type { PublicCatalogue } from './publicData';

/**
 * The app's one catalogue, ready at once with what the server rendered (the hydrating render
 * must show the same services as the HTML), else empty until its first load. Pages still call
 * ensureLoaded: that reloads it as the visitor (private services of a signed-in owner) after
 * hydration, showing the server's copy meanwhile. Made per app, not per module as the widgets'
 * page-wide one is, so two requests on the server never share one. The API URL and the token
 * source are the app's, fixed for its lifetime (App.tsx).
 */
export function useAppCatalogue(initial: PublicCatalogue | null | undefined): Catalogue {
  const { apiUrl, getAccessToken } = usePlatform();
  const [catalogue] = useState(() => {
    const client = createModelManagementClient({ baseURL: apiUrl, getAccessToken });
    const created = createCatalogue({ load: createApiCatalogueLoader(client) });
    if (initial) {
      const { models, categories, loadedAt } = initial;
      created.store.trigger.loadSucceeded({ requestId: 0, data: { models, categories }, at: loadedAt });
    }
    return created;
  });
  return catalogue;
}
