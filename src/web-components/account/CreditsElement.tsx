import { CreditsPanel } from '../../components/CreditsPanel';
import { defineWidget, type WidgetRenderProps } from '../defineWidget';
import { creditsDefinition } from '../definitions/accountPanels';
import { headingLevelOf } from './panelProps';

function Widget({ attributes: a, context }: WidgetRenderProps<typeof creditsDefinition>) {
  const attributes = a as Record<string, unknown>;
  return (
    <CreditsPanel
      headingLevel={headingLevelOf(attributes.headingLevel)}
      showBuy={attributes.showBuy !== false}
      // The page may take over the checkout (the event is cancelable).
      onCheckout={(checkout) => context.emit('checkout', checkout)}
    />
  );
}

export const LimeCreditsElement = /* @__PURE__ */ defineWidget(creditsDefinition, Widget);
