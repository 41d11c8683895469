import { SupportForm } from '../../components/SupportForm';
import { supportFormDefinition } from '../definitions/accountPanels';
import { definePanelElement } from './definePanelElement';

/** The `<lime-support-form>` element: `SupportForm` as a custom element (attributes and events in docs/embeds.md). */
export const LimeSupportFormElement = /* @__PURE__ */ definePanelElement(supportFormDefinition, SupportForm, (_, emit) => ({
  onSend: (id) => emit('support-sent', { id }),
}));
