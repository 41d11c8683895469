// @limelight/widgets/auth: the auth client and session store, the provider and hooks over them,
// the route guard and the page-state mapping of the sign-in page. Stable. The auth dialog's
// machine, actors and form rules (for custom views) are experimental: `@limelight/widgets/
// headless/auth` (docs/api-surface.md). Internals (alert constructors, the session reducer)
// are tested through their module files.
export { createAuthClient, getAuthClient } from './client';
export type { AuthClientOptions, LimeAuthClient } from './client';
export { LimeAuthError } from './errors';
export { createSessionStore, getSessionStore } from './sessionStore';
export type { SessionStore, SessionStoreState } from './sessionStore';
export { AuthProvider, useAuth, useSession } from './AuthProvider';
export type { AuthProviderProps, AuthContextValue } from './AuthProvider';
export { SIGN_IN_PATH } from './guard';
export { useRequireAuth } from './useRequireAuth';
export type { UseRequireAuthOptions } from './useRequireAuth';
export { parsePageState, pageStateOf } from './screens';
export type { AuthScreen, PageScreen } from './screens';
export type { AuthDialogMode, AuthRoutes, AuthRedirectUrls } from './types';
/** A signed-in session (supabase auth-js's `Session`): tokens, expiry and the user. */
export type { Session } from './types';
/** A user account (supabase auth-js's `User`): id, email, metadata and factors. */
export type { User } from './types';
