import { ProfileForm } from '../../components/ProfileForm';
import { profileFormDefinition } from '../definitions/accountPanels';
import { definePanelElement, stringOf } from './definePanelElement';

/** The `<lime-profile-form>` element: `ProfileForm` as a custom element (attributes and events in docs/embeds.md). */
export const LimeProfileFormElement = /* @__PURE__ */ definePanelElement(profileFormDefinition, ProfileForm, (attributes, emit) => ({
  termsUrl: stringOf(attributes.termsUrl),
  onSave: (profile) => emit('profile-saved', profile),
}));
