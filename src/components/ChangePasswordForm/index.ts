export { ChangePasswordForm } from './ChangePasswordForm';
export type { ChangePasswordFormProps } from './ChangePasswordForm';
export { useChangePasswordForm } from './useChangePasswordForm';
export type { UseChangePasswordFormOptions } from './useChangePasswordForm';
export { changePassword, passwordChangeMessage } from './changePassword';
export type { PasswordChangeOutcome } from './changePassword';
