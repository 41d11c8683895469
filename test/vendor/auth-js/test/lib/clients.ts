/* eslint-disable */
// @ts-nocheck -- vendored from supabase/supabase-js (../README.md): checked by its own suite, not by this repo
import { GoTrueAdminApi, GoTrueClient, type GoTrueClientOptions } from '../../src/index';
import { SupportedStorage } from '../../src/lib/types';

// Limelight plumbing (see ../../README.md): the auth URL and the keys come from the environment
// the runner sets (test/integration/auth/auth-js-suite.test.ts), not from the Supabase CLI.
export const GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON = process.env.AUTH_JS_SUITE_URL!;

// Supabase CLI JWT secret (only signs mock tokens the server must refuse)
export const GOTRUE_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

class MemoryStorage {
  private _storage: { [name: string]: string } = {};

  async setItem(name: string, value: string) {
    this._storage[name] = value;
  }

  async getItem(name: string): Promise<string | null> {
    return this._storage[name] || null;
  }

  async removeItem(name: string) {
    delete this._storage[name];
  }
}

// Limelight plumbing: the publishable key, and the service-role key for both admin clients.
export const SUPABASE_PUBLISHABLE_KEY = process.env.AUTH_JS_SUITE_PUBLISHABLE_KEY!;
export const SUPABASE_SECRET_KEY = process.env.AUTH_JS_SUITE_SERVICE_ROLE_KEY!;
const AUTH_ADMIN_JWT = SUPABASE_SECRET_KEY;

export const authClient = new GoTrueClient({
  url: GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON,
  headers: { apikey: SUPABASE_PUBLISHABLE_KEY },
  autoRefreshToken: false,
  persistSession: true,
  storage: new MemoryStorage(),
});

export const authClientWithSession = new GoTrueClient({
  url: GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON,
  headers: { apikey: SUPABASE_PUBLISHABLE_KEY },
  autoRefreshToken: false,
  persistSession: true,
  storage: new MemoryStorage(),
});

export const authSubscriptionClient = new GoTrueClient({
  url: GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON,
  headers: { apikey: SUPABASE_PUBLISHABLE_KEY },
  autoRefreshToken: false,
  persistSession: true,
  storage: new MemoryStorage(),
});

export const clientApiAutoConfirmEnabledClient = new GoTrueClient({
  url: GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON,
  headers: { apikey: SUPABASE_PUBLISHABLE_KEY },
  autoRefreshToken: false,
  persistSession: true,
  storage: new MemoryStorage(),
});

export const pkceClient = new GoTrueClient({
  url: GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON,
  headers: { apikey: SUPABASE_PUBLISHABLE_KEY },
  autoRefreshToken: false,
  persistSession: true,
  storage: new MemoryStorage(),
  flowType: 'pkce',
});

export const autoRefreshClient = new GoTrueClient({
  url: GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON,
  headers: { apikey: SUPABASE_PUBLISHABLE_KEY },
  autoRefreshToken: true,
  persistSession: true,
});

export const authAdminApiAutoConfirmEnabledClient = new GoTrueAdminApi({
  url: GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON,
  headers: {
    apikey: SUPABASE_SECRET_KEY,
    Authorization: `Bearer ${AUTH_ADMIN_JWT}`,
  },
});

export const serviceRoleApiClient = new GoTrueAdminApi({
  url: GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON,
  headers: {
    apikey: SUPABASE_SECRET_KEY,
    Authorization: `Bearer ${SUPABASE_SECRET_KEY}`,
  },
});

export function getClientWithSpecificStorage(storage: SupportedStorage) {
  return new GoTrueClient({
    url: GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON,
    headers: { apikey: SUPABASE_PUBLISHABLE_KEY },
    storageKey: 'test-specific-storage',
    autoRefreshToken: false,
    persistSession: true,
    storage,
  });
}

export function getClientWithSpecificStorageKey(storageKey: string, opts: GoTrueClientOptions = {}) {
  return new GoTrueClient({
    url: GOTRUE_URL_SIGNUP_ENABLED_AUTO_CONFIRM_ON,
    headers: { apikey: SUPABASE_PUBLISHABLE_KEY },
    autoRefreshToken: false,
    persistSession: true,
    storageKey,
    ...opts,
  });
}
