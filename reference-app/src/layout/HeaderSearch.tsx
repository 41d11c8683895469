import { ServiceSearch } from '@limelight/widgets/service-search';

/**
 * The header's service search (product-rules §2): the ServiceSearch widget over the page-wide catalogue.
 * Enter opens /APIs/Overview?q=...; a result opens its service page. Navigation goes through
 * the platform's navigate(), which the app wires to the router.
 */
export function HeaderSearch() {
  return <ServiceSearch />;
}
