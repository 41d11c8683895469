export { CreditsPanel } from './CreditsPanel';
export type { CreditsPanelProps } from './CreditsPanel';
export { useCreditsPanel, parseQuantity } from './useCreditsPanel';
export type { UseCreditsPanelOptions } from './useCreditsPanel';
