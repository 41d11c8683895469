// Who calls the platform API, as every feature's routes read it: handlers take it from
// `c.var.caller`. The mount list (v1/mounts.ts) decides which routes need a caller; the caller
// itself is found by profile/callers.ts (an access token or an API key), so this file imports
// no feature (docs/architecture.md, "Server layers").

export interface ApiCaller {
  userId: string;
  email: string;
  via: 'token' | 'api_key';
  /** The auth session behind an access token (absent for API keys). */
  sessionId?: string;
  /** The token's assurance level: `aal2` after an MFA verification (absent for API keys). */
  aal?: 'aal1' | 'aal2';
}

/** Hono environment of routes that run only with a caller. */
export interface SignedInEnv {
  Variables: { caller: ApiCaller };
}

/** Hono environment of routes that work anonymously and use a caller when one is sent. */
export interface MaybeSignedInEnv {
  Variables: { caller: ApiCaller | undefined };
}

export const MISSING_CREDENTIALS = 'Not authenticated: send the header Authorization: Bearer <access token or API key>';
