import { RegistryCredentialsPanel } from '../../components/RegistryCredentialsPanel';
import { registryCredentialsDefinition } from '../definitions/accountPanels';
import { definePanelElement } from './definePanelElement';

/** The `<lime-registry-credentials>` element: `RegistryCredentialsPanel` as a custom element (attributes and events in docs/embeds.md). */
export const LimeRegistryCredentialsElement = /* @__PURE__ */ definePanelElement(
  registryCredentialsDefinition,
  RegistryCredentialsPanel,
  (_, emit) => ({
    onAdd: (credential) => emit('credential-added', credential),
    onDelete: (id) => emit('credential-deleted', { id }),
  }),
);
