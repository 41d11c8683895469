export { RegistryCredentialsPanel } from './RegistryCredentialsPanel';
export type { RegistryCredentialsPanelProps } from './RegistryCredentialsPanel';
