// The one rule for which bearer a call sends (docs/architecture.md, "The client layer"). Every
// client of src/api takes these options and resolves them once, here, so the widgets, the app
// and the SDK cannot disagree about whose token a call carries.

/** Supplies a bearer on demand; resolves null when there is none. */
export type AccessTokenGetter = () => Promise<string | null> | string | null;

/** Anything that holds a signed-in session, e.g. the auth dialog's session store. */
export interface SessionTokens {
  getAccessToken(): Promise<string | null> | string | null;
}

/**
 * Where a client's bearer comes from, tried in this order until one gives a token:
 * `accessToken`, `apiKey`, `getAccessToken`, `session`.
 */
export interface TokenSourceOptions {
  /** A token the caller already holds (e.g. the one a sign-in just returned). */
  accessToken?: string | null;
  /** A platform API key; the API accepts it as the bearer, like a session token. */
  apiKey?: string | null;
  /** The host's own token source (e.g. the app's auth, or `PlatformProvider`'s `getAccessToken`). */
  getAccessToken?: AccessTokenGetter;
  /** The session store the sign-in dialog writes: read when nothing before it gives a token. */
  session?: SessionTokens | null;
}

/** The resolved source: the bearer for the next call, or null when anonymous. */
export type TokenSource = () => Promise<string | null>;

/**
 * Resolves the options to one token source. A getter that throws counts as giving no token, so
 * a broken host source falls through to the session and, at worst, to "Login first".
 */
export function createTokenSource(options: TokenSourceOptions = {}): TokenSource {
  const { accessToken, apiKey, getAccessToken, session } = options;
  // Written small on purpose: every script-tag bundle carries it, the search one included.
  const sources = [() => accessToken || apiKey, getAccessToken, () => session?.getAccessToken()];
  return async () => {
    for (const source of sources) {
      try {
        const token = await source?.();
        if (token) return token;
      } catch {
        // Next source.
      }
    }
    return null;
  };
}
