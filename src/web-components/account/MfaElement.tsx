import { MfaPanel } from '../../components/MfaPanel';
import { mfaDefinition } from '../definitions/accountPanels';
import { definePanelElement } from './definePanelElement';

/** The `<lime-mfa>` element: `MfaPanel` as a custom element (attributes and events in docs/embeds.md). */
export const LimeMfaElement = /* @__PURE__ */ definePanelElement(mfaDefinition, MfaPanel, (_, emit) => ({
  onEnrol: (id) => emit('factor-enrolled', { id }),
  onRemove: (id) => emit('factor-removed', { id }),
}));
