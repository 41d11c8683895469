import type { PlatformClients } from '../../api/clients';
import { useAuth } from '../../auth/AuthProvider';
import { usePlatformClients } from '../../config/usePlatformClients';

/**
 * The API clients for the account panels, reading the session store the auth dialog signs into
 * when the platform gives no token (inside a web component the provider has no token source of
 * its own; in an app it reads the same store).
 */
export function useAccountClients(): PlatformClients {
  return usePlatformClients(useAuth().store);
}
