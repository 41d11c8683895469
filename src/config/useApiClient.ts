import { useMemo } from 'react';
import type { ClientOptions } from '../api/http';
import type { SessionTokens } from '../api/token';
import { usePlatform } from './PlatformProvider';

/**
 * The React side of the client layer (docs/architecture.md): a client made by `factory` (any
 * group factory of `@limelight/widgets/api`, or `createPlatformClients`) for the platform's API
 * URL, with the token rule of `createTokenSource`: the platform's `getAccessToken`, then
 * `session` (the sign-in store) when given. Memoised per API URL, token source and session.
 *
 * Widgets that sign in pass the session store; the catalogue passes none, so the search bundle
 * carries no auth code.
 */
export function useApiClient<C>(factory: (options: ClientOptions) => C, session?: SessionTokens | null): C {
  const { apiUrl, getAccessToken } = usePlatform();
  return useMemo(() => factory({ baseURL: apiUrl, getAccessToken, session }), [factory, apiUrl, getAccessToken, session]);
}
