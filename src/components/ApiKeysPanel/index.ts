export { ApiKeysPanel } from './ApiKeysPanel';
export type { ApiKeysPanelProps } from './ApiKeysPanel';
export { useApiKeysPanel, API_KEY_LIFETIMES, isExpired, sortKeys } from './useApiKeysPanel';
export type { UseApiKeysPanelOptions } from './useApiKeysPanel';
export type { AccountPanelBaseProps, HeadingLevel } from '../AccountPanel';
