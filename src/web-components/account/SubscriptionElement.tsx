import { SubscriptionPanel } from '../../components/SubscriptionPanel';
import { subscriptionDefinition } from '../definitions/accountPanels';
import { definePanelElement, stringOf } from './definePanelElement';

/** The `<lime-subscription>` element: `SubscriptionPanel` as a custom element (attributes and events in docs/embeds.md). */
export const LimeSubscriptionElement = /* @__PURE__ */ definePanelElement(
  subscriptionDefinition,
  SubscriptionPanel,
  (attributes, emit) => ({
    returnUrl: stringOf(attributes.returnUrl),
    onChange: (subscription) => emit('subscription-change', subscription),
  }),
);
