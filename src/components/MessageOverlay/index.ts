export { MessageOverlay } from './MessageOverlay';
export type { MessageOverlayProps } from './MessageOverlay';
export { useMessageOverlay } from './useMessageOverlay';
export type { MessageOverlayView } from './useMessageOverlay';
