import { MfaPanel } from '../../components/MfaPanel';
import { defineWidget, type WidgetRenderProps } from '../defineWidget';
import { mfaDefinition } from '../definitions/accountPanels';
import { headingLevelOf } from './panelProps';

function Widget({ attributes: a, context }: WidgetRenderProps<typeof mfaDefinition>) {
  const attributes = a as Record<string, unknown>;
  return (
    <MfaPanel
      headingLevel={headingLevelOf(attributes.headingLevel)}
      onEnrol={(id) => context.emit('factor-enrolled', { id })}
      onRemove={(id) => context.emit('factor-removed', { id })}
    />
  );
}

export const LimeMfaElement = /* @__PURE__ */ defineWidget(mfaDefinition, Widget);
