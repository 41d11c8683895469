import { SubscriptionPanel } from '../../components/SubscriptionPanel';
import { defineWidget, type WidgetRenderProps } from '../defineWidget';
import { subscriptionDefinition } from '../definitions/accountPanels';
import { headingLevelOf } from './panelProps';

function Widget({ attributes: a, context }: WidgetRenderProps<typeof subscriptionDefinition>) {
  const attributes = a as Record<string, unknown>;
  return (
    <SubscriptionPanel
      headingLevel={headingLevelOf(attributes.headingLevel)}
      returnUrl={(attributes.returnUrl as string | undefined) || undefined}
      onChange={(subscription) => context.emit('subscription-change', subscription)}
    />
  );
}

export const LimeSubscriptionElement = /* @__PURE__ */ defineWidget(subscriptionDefinition, Widget);
