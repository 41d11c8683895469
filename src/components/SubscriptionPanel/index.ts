export { SubscriptionPanel } from './SubscriptionPanel';
export type { SubscriptionPanelProps } from './SubscriptionPanel';
export { useSubscriptionPanel } from './useSubscriptionPanel';
export type { UseSubscriptionPanelOptions } from './useSubscriptionPanel';
export { availableActions, SUBSCRIBABLE_PLANS } from './subscriptionActions';
export type { SubscriptionAction } from './subscriptionActions';
