import { useMemo } from 'react';
import { createPlatformClients, type PlatformClients } from '../../api/clients';
import { useAuth } from '../../auth/AuthProvider';
import { usePlatform } from '../../config/PlatformProvider';

/**
 * The API clients for the account panels, with the bearer token taken from the same session
 * store the auth dialog signs into. Inside a web component the platform provider has no token
 * source of its own, and in an app the store is the one the app's `AuthProvider` shares, so
 * both read the one session.
 */
export function useAccountClients(): PlatformClients {
  const { apiUrl } = usePlatform();
  const { store } = useAuth();
  return useMemo(() => createPlatformClients({ baseURL: apiUrl, getAccessToken: () => store.getAccessToken() }), [apiUrl, store]);
}
