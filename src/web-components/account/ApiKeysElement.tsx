import { ApiKeysPanel } from '../../components/ApiKeysPanel';
import { apiKeysDefinition } from '../definitions/accountPanels';
import { definePanelElement } from './definePanelElement';

/** The `<lime-api-keys>` element: `ApiKeysPanel` as a custom element (attributes and events in docs/embeds.md). */
export const LimeApiKeysElement = /* @__PURE__ */ definePanelElement(apiKeysDefinition, ApiKeysPanel, (_, emit) => ({
  onCreate: ({ id, display_value, created_at, expiration_date }) => emit('key-created', { id, display_value, created_at, expiration_date }),
  onDelete: (id) => emit('key-deleted', { id }),
}));
