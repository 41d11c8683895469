import { SupportForm } from '../../components/SupportForm';
import { defineWidget, type WidgetRenderProps } from '../defineWidget';
import { supportFormDefinition } from '../definitions/accountPanels';
import { headingLevelOf } from './panelProps';

function Widget({ attributes: a, context }: WidgetRenderProps<typeof supportFormDefinition>) {
  const attributes = a as Record<string, unknown>;
  return <SupportForm headingLevel={headingLevelOf(attributes.headingLevel)} onSend={(id) => context.emit('support-sent', { id })} />;
}

export const LimeSupportFormElement = /* @__PURE__ */ defineWidget(supportFormDefinition, Widget);
