// @limelight/widgets/headless/auth: EXPERIMENTAL (docs/api-surface.md). The auth dialog's
// XState machine, the actors it calls and the hook that runs both, for a custom sign-in view
// over the same states; plus the form rules the dialog validates with. These follow the
// dialog's internals and may change in any minor release; the stable surface is
// `@limelight/widgets/auth` and `@limelight/widgets/auth-dialog`.
export { authDialogMachine, screenOf, isBusy } from '../auth/authDialogMachine';
export type { AuthDialogMachine, AuthDialogActorRef, AuthDialogEvent, AuthDialogSnapshot } from '../auth/authDialogMachine';
export { createAuthDialogActors } from '../auth/authDialogActors';
export type { AuthDialogActors } from '../auth/authDialogActors';
export { useAuthDialog } from '../components/AuthDialog/useAuthDialog';
export type { UseAuthDialogOptions } from '../components/AuthDialog/useAuthDialog';
export { validateForm, isValid } from '../auth/validation';
export type { FieldErrors } from '../auth/validation';
