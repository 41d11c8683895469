import { ChangePasswordForm } from '../../components/ChangePasswordForm';
import { changePasswordDefinition } from '../definitions/accountPanels';
import { definePanelElement } from './definePanelElement';

/** The `<lime-change-password>` element: `ChangePasswordForm` as a custom element (attributes and events in docs/embeds.md). */
export const LimeChangePasswordElement = /* @__PURE__ */ definePanelElement(changePasswordDefinition, ChangePasswordForm, (_, emit) => ({
  onChange: () => emit('password-changed', null),
}));
