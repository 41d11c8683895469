export { RegistryCredentialsPanel } from './RegistryCredentialsPanel';
export type { RegistryCredentialsPanelProps } from './RegistryCredentialsPanel';
export { useRegistryCredentialsPanel } from './useRegistryCredentialsPanel';
export type { UseRegistryCredentialsPanelOptions } from './useRegistryCredentialsPanel';
