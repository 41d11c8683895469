export { ApiKeysPanel } from './ApiKeysPanel';
export type { ApiKeysPanelProps } from './ApiKeysPanel';
