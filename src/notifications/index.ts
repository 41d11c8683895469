// @limelight/widgets/notifications: the page's message channel (toasts and the message overlay).
// Stable.
export { createNotifier, notify } from './notify';
export type { Notifier, ShowOptions } from './notify';
export { useGlobalEvents } from './useGlobalEvents';
export type { GlobalEventsState, MessageKind } from './globalEvents';
