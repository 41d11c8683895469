import { useMemo } from 'react';
import { usePlatform } from '../config/PlatformProvider';
import { createPlatformClients, type PlatformClients } from './clients';

/** The API clients for the configured platform, memoised per API URL and token source. */
export function usePlatformClients(): PlatformClients {
  const { apiUrl, getAccessToken } = usePlatform();
  return useMemo(() => createPlatformClients({ baseURL: apiUrl, getAccessToken }), [apiUrl, getAccessToken]);
}
