// Shared parts of the account panels; not a public entry of its own (each panel re-exports
// what its consumers need).
export { AccountPanel } from './AccountPanel';
export type { AccountPanelBaseProps, HeadingLevel } from './AccountPanel';
export { useAccountClients } from './useAccountClients';
export { useApiResource } from '../../config/useApiResource';
export { useFeedback } from './useFeedback';
export type { Feedback, FeedbackTone, FeedbackController } from './useFeedback';
export { useSignInState } from './useSignedIn';
export type { SignInState } from './useSignedIn';
export { formatString } from '../../config/strings';
export { formatDate, formatDateTime, formatMoney, formatMonth } from './format';
/** Credits have one format everywhere, a balance at most 2 decimals (run/metering.ts). */
export { formatCredits } from '../../run/metering';
export { Field } from './Field';
export type { FieldProps } from './Field';
