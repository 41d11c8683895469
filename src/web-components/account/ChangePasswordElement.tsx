import { ChangePasswordForm } from '../../components/ChangePasswordForm';
import { changePasswordDefinition } from '../definitions/accountPanels';
import { definePanelElement } from './definePanelElement';

export const LimeChangePasswordElement = /* @__PURE__ */ definePanelElement(changePasswordDefinition, ChangePasswordForm, (_, emit) => ({
  onChange: () => emit('password-changed', null),
}));
