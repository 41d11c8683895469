import { MfaPanel } from '../../components/MfaPanel';
import { mfaDefinition } from '../definitions/accountPanels';
import { definePanelElement } from './definePanelElement';

export const LimeMfaElement = /* @__PURE__ */ definePanelElement(mfaDefinition, MfaPanel, (_, emit) => ({
  onEnrol: (id) => emit('factor-enrolled', { id }),
  onRemove: (id) => emit('factor-removed', { id }),
}));
