import { RegistryCredentialsPanel } from '../../components/RegistryCredentialsPanel';
import { registryCredentialsDefinition } from '../definitions/accountPanels';
import { definePanelElement } from './definePanelElement';

export const LimeRegistryCredentialsElement = /* @__PURE__ */ definePanelElement(
  registryCredentialsDefinition,
  RegistryCredentialsPanel,
  (_, emit) => ({
    onAdd: (credential) => emit('credential-added', credential),
    onDelete: (id) => emit('credential-deleted', { id }),
  }),
);
