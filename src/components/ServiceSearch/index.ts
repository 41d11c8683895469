export { ServiceSearch } from './ServiceSearch';
export type { ServiceSearchProps, ServiceSearchEnvironment } from './ServiceSearch';
export { useServiceSearch } from './useServiceSearch';
/** Ctrl/Cmd+K and '/' focus the given search input (for views built on `useServiceSearch`). */
export { useFocusShortcut as useSearchShortcut } from '../../internal/useFocusShortcut';
export type {
  UseServiceSearchOptions,
  ServiceSearchState,
  ServiceSearchNavigationEvent,
  ServiceSearchSelectEvent,
  ServiceSearchSubmitEvent,
} from './useServiceSearch';
