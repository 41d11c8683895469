export { MessageOverlay } from './MessageOverlay';
export type { MessageOverlayProps } from './MessageOverlay';
