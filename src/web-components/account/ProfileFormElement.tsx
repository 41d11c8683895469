import { ProfileForm } from '../../components/ProfileForm';
import { profileFormDefinition } from '../definitions/accountPanels';
import { definePanelElement, stringOf } from './definePanelElement';

export const LimeProfileFormElement = /* @__PURE__ */ definePanelElement(profileFormDefinition, ProfileForm, (attributes, emit) => ({
  termsUrl: stringOf(attributes.termsUrl),
  onSave: (profile) => emit('profile-saved', profile),
}));
