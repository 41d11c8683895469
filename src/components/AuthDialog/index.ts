export { AuthDialog } from './AuthDialog';
export type { AuthDialogProps } from './AuthDialog';
export { useAuthDialog } from './useAuthDialog';
export type { UseAuthDialogOptions } from './useAuthDialog';
export { AuthProvider, useAuth, useSession } from '../../auth/AuthProvider';
export type { AuthProviderProps } from '../../auth/AuthProvider';
export type { AuthDialogActors } from '../../auth/authDialogActors';
export type { AuthScreen, PageScreen } from '../../auth/screens';
export type { AuthDialogMode, AuthRedirectUrls, AuthRoutes, Session } from '../../auth/types';
