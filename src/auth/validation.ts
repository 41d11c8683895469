import type { authStrings } from '../config/strings/auth';

/** product-rules §5 / §9: password minimum length. */
export const PASSWORD_MIN_LENGTH = 6;

/**
 * E-mail pattern (product-rules §5: "The exact pattern: not shown"). Designed to refuse only what is
 * certainly not an address: one '@', no spaces, a dot in the domain. The server has the last word.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export type ValidationKey = keyof typeof authStrings.validation;

export type FieldName = 'email' | 'password' | 'newPassword' | 'mfaCode' | 'emailCode';
/** Validation failures by form field, as message keys of the strings table. */
export type FieldErrors = Partial<Record<FieldName, ValidationKey>>;

/** product-rules §5: 'E-mail is required', 'E-mail must be valid'. */
export function validateEmail(email: string): ValidationKey | undefined {
  const value = email.trim();
  if (!value) return 'emailRequired';
  if (!EMAIL_PATTERN.test(value)) return 'emailInvalid';
  return undefined;
}

/** product-rules §5 (sign-in and sign-up): 'Password is required', at least 6 characters. */
export function validatePassword(password: string): ValidationKey | undefined {
  if (!password) return 'passwordRequired';
  if (password.length < PASSWORD_MIN_LENGTH) return 'passwordTooShort';
  return undefined;
}

/** product-rules §5 (set new password): 'Please enter a new password.', '... at least 6 characters long.' */
export function validateNewPassword(password: string): ValidationKey | undefined {
  if (!password) return 'newPasswordRequired';
  if (password.length < PASSWORD_MIN_LENGTH) return 'newPasswordTooShort';
  return undefined;
}

/** product-rules §5 (password recovery): empty gives 'Please enter your email address.'; a malformed
 * address gives the e-mail rule's own message. */
export function validateRecoveryEmail(email: string): ValidationKey | undefined {
  if (!email.trim()) return 'recoveryEmailRequired';
  return validateEmail(email);
}

/** Length of a TOTP code (RFC 6238 as authenticator apps use it) and of the e-mail's code. */
export const MFA_CODE_LENGTH = 6;

/** A 6-digit code: required (`required` names the message), spaces between groups allowed. */
function validateCode(code: string, required: ValidationKey): ValidationKey | undefined {
  const digits = code.replace(/\s+/g, '');
  if (!digits) return required;
  if (!new RegExp(`^\\d{${MFA_CODE_LENGTH}}$`).test(digits)) return 'mfaCodeInvalid';
  return undefined;
}

/** The code of the MFA step. */
export const validateMfaCode = (code: string) => validateCode(code, 'mfaCodeRequired');

/** The code of the confirmation e-mail (the account-created screen). */
export const validateEmailCode = (code: string) => validateCode(code, 'emailCodeRequired');

function compact(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([, v]) => v !== undefined)) as FieldErrors;
}

/** Which form a screen shows. */
export type AuthForm = 'credentials' | 'recovery' | 'newPassword' | 'mfaCode' | 'emailCode';

/** Validates one form; an empty object means valid. */
export function validateForm(
  form: AuthForm,
  values: { email: string; password: string; newPassword: string; mfaCode?: string; emailCode?: string },
): FieldErrors {
  switch (form) {
    case 'credentials':
      return compact({ email: validateEmail(values.email), password: validatePassword(values.password) });
    case 'recovery':
      return compact({ email: validateRecoveryEmail(values.email) });
    case 'newPassword':
      return compact({ newPassword: validateNewPassword(values.newPassword) });
    case 'mfaCode':
      return compact({ mfaCode: validateMfaCode(values.mfaCode ?? '') });
    case 'emailCode':
      return compact({ emailCode: validateEmailCode(values.emailCode ?? '') });
  }
}

/** Whether a `validateForm` result has no failures. */
export function isValid(errors: FieldErrors): boolean {
  return Object.keys(errors).length === 0;
}
