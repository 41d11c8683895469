export { SubscriptionPanel } from './SubscriptionPanel';
export type { SubscriptionPanelProps } from './SubscriptionPanel';
export { useSubscriptionPanel } from './useSubscriptionPanel';
export type { PendingConfirmation, UseSubscriptionPanelOptions } from './useSubscriptionPanel';
export { availableActions, isUpgrade, planChangeTargets, statusKind, SUBSCRIBABLE_PLANS } from './subscriptionActions';
export type { SubscriptionAction } from './subscriptionActions';
