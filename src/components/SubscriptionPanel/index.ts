export { SubscriptionPanel } from './SubscriptionPanel';
export type { SubscriptionPanelProps } from './SubscriptionPanel';
