import { ProfileForm } from '../../components/ProfileForm';
import { defineWidget, type WidgetRenderProps } from '../defineWidget';
import { profileFormDefinition } from '../definitions/accountPanels';
import { headingLevelOf } from './panelProps';

function Widget({ attributes: a, context }: WidgetRenderProps<typeof profileFormDefinition>) {
  const attributes = a as Record<string, unknown>;
  return (
    <ProfileForm
      headingLevel={headingLevelOf(attributes.headingLevel)}
      termsUrl={(attributes.termsUrl as string | undefined) || undefined}
      onSave={(profile) => context.emit('profile-saved', profile)}
    />
  );
}

export const LimeProfileFormElement = /* @__PURE__ */ defineWidget(profileFormDefinition, Widget);
