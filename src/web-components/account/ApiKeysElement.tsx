import { ApiKeysPanel } from '../../components/ApiKeysPanel';
import { defineWidget, type WidgetRenderProps } from '../defineWidget';
import { apiKeysDefinition } from '../definitions/accountPanels';
import { headingLevelOf } from './panelProps';

function Widget({ attributes: a, context }: WidgetRenderProps<typeof apiKeysDefinition>) {
  const attributes = a as Record<string, unknown>;
  return (
    <ApiKeysPanel
      headingLevel={headingLevelOf(attributes.headingLevel)}
      onCreate={({ id, display_value, created_at, expiration_date }) =>
        context.emit('key-created', { id, display_value, created_at, expiration_date })
      }
      onDelete={(id) => context.emit('key-deleted', { id })}
    />
  );
}

export const LimeApiKeysElement = /* @__PURE__ */ defineWidget(apiKeysDefinition, Widget);
