import { useEffect } from 'react';
import { useCatalogue, useCatalogueState } from '@limelight/widgets/catalogue';

/**
 * The page-wide catalogue (shared with the header search), loaded once. product-rules §4: a failure is
 * logged and ends loading; pages show what they have.
 */
export function useCatalogueData() {
  const catalogue = useCatalogue();
  const state = useCatalogueState(catalogue);
  useEffect(() => {
    catalogue.ensureLoaded().catch((error: unknown) => console.error('Failed to initialize search data', error));
  }, [catalogue]);
  return { ...state, catalogue };
}
