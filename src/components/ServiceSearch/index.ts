export { ServiceSearch } from './ServiceSearch';
export type { ServiceSearchProps } from './ServiceSearch';
export type { ServiceSearchNavigationEvent, ServiceSearchSelectEvent, ServiceSearchSubmitEvent } from './useServiceSearch';
