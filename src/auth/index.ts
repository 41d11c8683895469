export { createAuthClient, getAuthClient, onRefreshRejected, storageKeyFor } from './client';
export type { AuthClientOptions, LimeAuthClient } from './client';
export { LimeAuthError, toLimeAuthError, messageForTemplate } from './errors';
export type { AuthFailureKind, LimeAuthErrorOptions } from './errors';
export { applyAuthEvent, initialSessionState } from './sessionState';
export type { SessionState } from './sessionState';
export { createSessionStore, getSessionStore } from './sessionStore';
export type { SessionStore, SessionStoreOptions, SessionStoreState, VisibilitySource, AutoRefreshState } from './sessionStore';
export { AuthProvider, useAuth, useSession } from './AuthProvider';
export type { AuthProviderProps, AuthContextValue } from './AuthProvider';
export { AUTH_WAIT_TIMEOUT_MS, SIGN_IN_PATH, decideGuard } from './guard';
export type { GuardDecision } from './guard';
export { useRequireAuth } from './useRequireAuth';
export type { UseRequireAuthOptions } from './useRequireAuth';
export {
  EMAIL_PATTERN,
  PASSWORD_MIN_LENGTH,
  validateEmail,
  validatePassword,
  validateNewPassword,
  validateRecoveryEmail,
  validateForm,
  isValid,
} from './validation';
export type { FieldErrors, FieldName, ValidationKey, AuthForm } from './validation';
export { SOCIAL_PROVIDERS, AZURE_SCOPES, scopesFor, isSocialProvider } from './socialProviders';
export type { SocialProvider } from './socialProviders';
export * from './alerts';
export { authDialogMachine, formOf } from './authDialogMachine';
export type {
  AuthDialogInput,
  AuthDialogContext,
  AuthDialogEvent,
  AuthDialogEmitted,
  AuthDialogMachine,
  AuthDialogActorRef,
  AuthDialogSnapshot,
  SignUpResult,
} from './authDialogMachine';
export { createAuthDialogActors } from './authDialogActors';
export type { AuthDialogActors, AuthDialogActorOptions } from './authDialogActors';
export { PAGE_STATES, parsePageState, DEFAULT_AUTH_ROUTES, defaultRedirectUrls } from './types';
export type { PageState, AuthDialogMode, AuthRoutes, AuthRedirectUrls, Session, User } from './types';
