import { ChangePasswordForm } from '../../components/ChangePasswordForm';
import { defineWidget, type WidgetRenderProps } from '../defineWidget';
import { changePasswordDefinition } from '../definitions/accountPanels';
import { headingLevelOf } from './panelProps';

function Widget({ attributes: a, context }: WidgetRenderProps<typeof changePasswordDefinition>) {
  const attributes = a as Record<string, unknown>;
  return (
    <ChangePasswordForm headingLevel={headingLevelOf(attributes.headingLevel)} onChange={() => context.emit('password-changed', null)} />
  );
}

export const LimeChangePasswordElement = /* @__PURE__ */ defineWidget(changePasswordDefinition, Widget);
