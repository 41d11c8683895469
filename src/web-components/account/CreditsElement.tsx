import { CreditsPanel } from '../../components/CreditsPanel';
import { creditsDefinition } from '../definitions/accountPanels';
import { definePanelElement } from './definePanelElement';

/** The `<lime-credits>` element: `CreditsPanel` as a custom element (attributes and events in docs/embeds.md). */
export const LimeCreditsElement = /* @__PURE__ */ definePanelElement(creditsDefinition, CreditsPanel, (attributes, emit) => ({
  showBuy: attributes.showBuy !== false,
  // The page may take over the checkout (the event is cancelable).
  onCheckout: (checkout) => emit('checkout', checkout),
}));
