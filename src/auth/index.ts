// @limelight/widgets/auth: the auth client and session store, the route guard, the auth dialog's
// machine and screens for custom views, and the form rules. Internals (alert constructors, the
// session reducer) are tested through their module files.
export { createAuthClient, getAuthClient, onRefreshRejected, storageKeyFor } from './client';
export type { AuthClientOptions, LimeAuthClient } from './client';
export { LimeAuthError, toLimeAuthError } from './errors';
export type { AuthFailureKind, LimeAuthErrorOptions } from './errors';
export type { SessionState } from './sessionState';
export { createSessionStore, getSessionStore } from './sessionStore';
export type { SessionStore, SessionStoreOptions, SessionStoreState, VisibilitySource, AutoRefreshState } from './sessionStore';
export { AuthProvider, useAuth, useSession } from './AuthProvider';
export type { AuthProviderProps, AuthContextValue } from './AuthProvider';
export { AUTH_WAIT_TIMEOUT_MS, SIGN_IN_PATH, decideGuard } from './guard';
export type { GuardDecision } from './guard';
export { useRequireAuth } from './useRequireAuth';
export type { UseRequireAuthOptions } from './useRequireAuth';
export { PASSWORD_MIN_LENGTH, validateForm, isValid } from './validation';
export type { FieldErrors, FieldName, ValidationKey, AuthForm } from './validation';
export { SOCIAL_PROVIDERS } from './socialProviders';
export type { SocialProvider } from './socialProviders';
export { formatAlert } from './alerts';
export type { AuthAlert, AlertKey, AlertTone } from './alerts';
export { authDialogMachine, isBusy, screenOf } from './authDialogMachine';
export type {
  AuthDialogInput,
  AuthDialogContext,
  AuthDialogEvent,
  AuthDialogEmitted,
  AuthDialogMachine,
  AuthDialogActorRef,
  AuthDialogSnapshot,
  AssuranceCheck,
  SignUpResult,
} from './authDialogMachine';
export { createAuthDialogActors } from './authDialogActors';
export type { AuthDialogActors, AuthDialogActorOptions } from './authDialogActors';
export { AUTH_SCREENS, PAGE_SCREENS, parsePageState, pageStateOf, screenOfPageState, isPageScreen } from './screens';
export type { AuthScreen, PageScreen, PageState } from './screens';
export { DEFAULT_AUTH_ROUTES, defaultRedirectUrls } from './types';
export type { AuthDialogMode, AuthRoutes, AuthRedirectUrls, Session, User } from './types';
