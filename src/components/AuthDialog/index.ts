export { AuthDialog } from './AuthDialog';
export type { AuthDialogProps } from './AuthDialog';
export type { AuthScreen, PageScreen } from '../../auth/screens';
export type { AuthDialogMode } from '../../auth/types';
