export { AuthDialog } from './AuthDialog';
export type { AuthDialogProps } from './AuthDialog';
export { useAuthDialog } from './useAuthDialog';
export type { UseAuthDialogOptions } from './useAuthDialog';
export { useModalDialog } from './useModalDialog';
export { AuthProvider, useAuth, useSession } from '../../auth/AuthProvider';
export type { AuthProviderProps } from '../../auth/AuthProvider';
export type { AuthDialogActors } from '../../auth/authDialogActors';
export type { AuthDialogMode, AuthRedirectUrls, AuthRoutes, PageState, Session } from '../../auth/types';
