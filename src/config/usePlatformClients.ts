import { createPlatformClients, type PlatformClients } from '../api/clients';
import type { SessionTokens } from '../api/token';
import { useApiClient } from './useApiClient';

/** Every API group for the configured platform (`useApiClient` over `createPlatformClients`). */
export function usePlatformClients(session?: SessionTokens | null): PlatformClients {
  return useApiClient(createPlatformClients, session);
}
