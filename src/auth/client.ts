import { AuthClient, type SupportedStorage } from '@supabase/auth-js';
import { LimeAuthError } from './errors';

/** The auth client's type (auth-js `GoTrueClient`, the class supabase-js wraps). */
export type LimeAuthClient = InstanceType<typeof AuthClient>;

/** Options of `createAuthClient`: the auth server URL and key, and where the session is kept. */
export interface AuthClientOptions {
  /** Supabase-compatible service URL; the client talks to `${authUrl}/auth/v1`. */
  authUrl: string;
  /** Public (anon) key, sent as `apikey` and as the default bearer token. */
  authKey: string;
  /** Session storage. @default window.localStorage in a browser, memory elsewhere */
  storage?: SupportedStorage;
  /** fetch implementation. @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
  /** Read a session from the URL after an e-mail link or OAuth redirect. @default true */
  detectSessionInUrl?: boolean;
  /** Storage key. @default `sb-<first hostname label>-auth-token`, as supabase-js names it */
  storageKey?: string;
}

/** Statuses auth-js treats as retryable (infrastructure trouble, never the client's fault). */
const RETRYABLE_STATUSES = new Set([500, 501, 502, 503, 504, 520, 521, 522, 523, 524, 525, 526, 527, 528, 529, 530]);

type RefreshRejectedListener = (status: number) => void;
const refreshRejectedListeners = new WeakMap<LimeAuthClient, Set<RefreshRejectedListener>>();

/** supabase-js's storage key: `sb-<first label of the URL's hostname>-auth-token`. */
export function storageKeyFor(authUrl: string): string {
  return `sb-${new URL(authUrl).hostname.split('.')[0]}-auth-token`;
}

function validated(options: Pick<AuthClientOptions, 'authUrl' | 'authKey'>): { url: string; key: string } {
  // product-rules §5: the auth client requires a service URL and key.
  const rawUrl = typeof options.authUrl === 'string' ? options.authUrl.trim() : '';
  if (!rawUrl) throw new LimeAuthError('The auth client requires a service URL: authUrl is empty.');
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch (cause) {
    throw new LimeAuthError(`The auth client requires a service URL: authUrl "${rawUrl}" is not an absolute URL.`, { cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LimeAuthError(`The auth client requires an http(s) service URL: authUrl "${rawUrl}" uses ${url.protocol}.`);
  }
  const key = typeof options.authKey === 'string' ? options.authKey.trim() : '';
  if (!key) throw new LimeAuthError('The auth client requires a key: authKey is empty.');
  return { url: rawUrl.replace(/\/+$/, ''), key };
}

/**
 * Creates the auth client: auth-js's `AuthClient` (GoTrueClient) unmodified, configured the way
 * supabase-js configures it, so widgets need not carry all of supabase-js. Implicit flow (the
 * e-mail links carry the session in the fragment) and session detection in the URL.
 *
 * The only addition is an observing `fetch`: it reports refresh-token requests the server
 * refused (4xx), so the session store can sign out (product-rules §4) even while the access token is
 * still valid, a case in which auth-js keeps the session.
 */
export function createAuthClient(options: AuthClientOptions): LimeAuthClient {
  const { url, key } = validated(options);
  const listeners = new Set<RefreshRejectedListener>();
  const baseFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const observingFetch: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (response.status >= 400 && !RETRYABLE_STATUSES.has(response.status) && /\/token\?(.*&)?grant_type=refresh_token(&|$)/.test(target)) {
      for (const listener of [...listeners]) {
        // After the client has handled the answer, never inside its refresh.
        setTimeout(() => listener(response.status), 0);
      }
    }
    return response;
  };
  const client = new AuthClient({
    url: `${url}/auth/v1`,
    headers: { apikey: key, Authorization: `Bearer ${key}`, 'X-Client-Info': 'limelight-widgets' },
    storageKey: options.storageKey ?? storageKeyFor(url),
    storage: options.storage,
    fetch: observingFetch,
    flowType: 'implicit',
    detectSessionInUrl: options.detectSessionInUrl ?? true,
    autoRefreshToken: true,
    persistSession: true,
  });
  refreshRejectedListeners.set(client, listeners);
  return client;
}

/**
 * Calls `listener` with the HTTP status whenever the server refuses a refresh token (a
 * non-retryable failure). Only for clients made by `createAuthClient`. Returns the unsubscribe.
 */
export function onRefreshRejected(client: LimeAuthClient, listener: RefreshRejectedListener): () => void {
  const listeners = refreshRejectedListeners.get(client);
  if (!listeners) return () => {};
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const cache = new Map<string, LimeAuthClient>();

/**
 * One client per service URL and key for the whole page (several auth-js clients on one storage
 * key race each other). Widgets and the reference app share it.
 */
export function getAuthClient(options: Pick<AuthClientOptions, 'authUrl' | 'authKey'>): LimeAuthClient {
  const { url, key } = validated(options);
  const cacheKey = `${url}\n${key}`;
  let client = cache.get(cacheKey);
  if (!client) {
    client = createAuthClient({ authUrl: url, authKey: key });
    cache.set(cacheKey, client);
  }
  return client;
}
