export { MfaPanel } from './MfaPanel';
export type { MfaPanelProps } from './MfaPanel';
