export { createGlobalEventsStore, globalEvents, initialGlobalEvents } from './globalEvents';
export type { GlobalEventsState, GlobalEventsStore, MessageKind } from './globalEvents';
export { createNotifier, notify } from './notify';
export type { Notifier, ShowOptions } from './notify';
export { useGlobalEvents } from './useGlobalEvents';
