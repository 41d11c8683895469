import { SupportForm } from '../../components/SupportForm';
import { supportFormDefinition } from '../definitions/accountPanels';
import { definePanelElement } from './definePanelElement';

export const LimeSupportFormElement = /* @__PURE__ */ definePanelElement(supportFormDefinition, SupportForm, (_, emit) => ({
  onSend: (id) => emit('support-sent', { id }),
}));
