export { ServiceSearch } from './ServiceSearch';
export type { ServiceSearchProps, ServiceSearchEnvironment } from './ServiceSearch';
export { useServiceSearch, useSearchShortcut, isEditableElement, searchShortcutOf } from './useServiceSearch';
export type {
  UseServiceSearchOptions,
  ServiceSearchState,
  ServiceSearchNavigationEvent,
  ServiceSearchSelectEvent,
  ServiceSearchSubmitEvent,
} from './useServiceSearch';
