export { CreditsPanel } from './CreditsPanel';
export type { CreditsPanelProps } from './CreditsPanel';
