import { RegistryCredentialsPanel } from '../../components/RegistryCredentialsPanel';
import { defineWidget, type WidgetRenderProps } from '../defineWidget';
import { registryCredentialsDefinition } from '../definitions/accountPanels';
import { headingLevelOf } from './panelProps';

function Widget({ attributes: a, context }: WidgetRenderProps<typeof registryCredentialsDefinition>) {
  const attributes = a as Record<string, unknown>;
  return (
    <RegistryCredentialsPanel
      headingLevel={headingLevelOf(attributes.headingLevel)}
      onAdd={(credential) => context.emit('credential-added', credential)}
      onDelete={(id) => context.emit('credential-deleted', { id })}
    />
  );
}

export const LimeRegistryCredentialsElement = /* @__PURE__ */ defineWidget(registryCredentialsDefinition, Widget);
