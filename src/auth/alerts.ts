import type { authStrings } from '../config/strings/auth';
import { formatString } from '../config/strings';
import { messageForTemplate, type LimeAuthError } from './errors';
import type { SocialProvider } from './socialProviders';

export type AlertKey = keyof typeof authStrings.messages;
export type AlertTone = 'error' | 'success' | 'info';

/**
 * A message above the form. The machine keeps keys and values, never texts, so an embed's
 * strings override applies; the view formats it.
 */
export interface AuthAlert {
  key: AlertKey;
  tone: AlertTone;
  values?: { email?: string; message?: string; provider?: SocialProvider };
  /** Shows the 'Resend verification email' button under the message. */
  action?: 'resend';
}

/** Codes that mean "wrong e-mail or password" (product-rules §8: 'Invalid email or password.'). */
const INVALID_CREDENTIAL_CODES = new Set(['invalid_credentials', 'user_not_found', 'validation_failed', 'user_banned']);
/** Codes of a sign-up for an address that is already registered (product-rules §8 UserExists). */
const USER_EXISTS_CODES = new Set(['user_already_exists', 'email_exists']);

export const unexpectedAlert: AuthAlert = { key: 'unexpected', tone: 'error' };
const unexpected = unexpectedAlert;

/** product-rules §8: sign-in failure, mapped by the server's error code. */
export function signInFailureAlert(error: LimeAuthError, email: string): AuthAlert {
  if (error.kind === 'api' && error.code && INVALID_CREDENTIAL_CODES.has(error.code)) {
    return { key: 'invalidCredentials', tone: 'error' };
  }
  // Beyond the spec: the password was right but the address is not confirmed yet. Saying
  // 'Invalid email or password.' would send the user to reset a password that works.
  if (error.kind === 'api' && error.code === 'email_not_confirmed') {
    return { key: 'emailNotConfirmed', tone: 'error', values: { email: email.trim() }, action: 'resend' };
  }
  return unexpected;
}

/** product-rules §8: UserExists with its resend button, mapped by code (or by the obfuscated user). */
export function userExistsAlert(email: string): AuthAlert {
  return { key: 'userExists', tone: 'error', values: { email: email.trim() }, action: 'resend' };
}

export function isUserExistsError(error: LimeAuthError): boolean {
  return error.kind === 'api' && error.code !== null && USER_EXISTS_CODES.has(error.code);
}

/** product-rules §8: other sign-up errors: 'Could not create account: {message}. ...'. */
export function signUpFailureAlert(error: LimeAuthError, email: string): AuthAlert {
  if (isUserExistsError(error)) return userExistsAlert(email);
  if (error.kind === 'unexpected') return unexpected;
  return { key: 'createAccountFailed', tone: 'error', values: { message: messageForTemplate(error) } };
}

/** product-rules §8: social sign-in failure. */
export function socialFailureAlert(provider: SocialProvider): AuthAlert {
  return { key: 'socialFailed', tone: 'error', values: { provider } };
}

export const resendFailedAlert: AuthAlert = { key: 'resendFailed', tone: 'error' };

export function resendSentAlert(email: string): AuthAlert {
  return { key: 'resendSent', tone: 'success', values: { email: email.trim() } };
}

export function recoveryFailureAlert(error: LimeAuthError): AuthAlert {
  if (error.kind === 'unexpected') return unexpected;
  return { key: 'recoveryFailed', tone: 'error', values: { message: messageForTemplate(error) } };
}

export const sessionErrorAlert: AuthAlert = { key: 'sessionError', tone: 'error' };
export const invalidLinkAlert: AuthAlert = { key: 'invalidLink', tone: 'error' };
export const resetSuccessAlert: AuthAlert = { key: 'resetSuccess', tone: 'success' };
export const emailConfirmedAlert: AuthAlert = { key: 'emailConfirmed', tone: 'success' };
export const confirmLinkInvalidAlert: AuthAlert = { key: 'confirmLinkInvalid', tone: 'error' };

/** product-rules §8: reset failure; a lost session is the session error of the recovery flow. */
export function resetFailureAlert(error: LimeAuthError): AuthAlert {
  if (error.kind === 'session-missing') return sessionErrorAlert;
  if (error.kind === 'unexpected') return unexpected;
  return { key: 'resetFailed', tone: 'error', values: { message: messageForTemplate(error) } };
}

/** The MFA step refused the code: wrong (or reused) code, or an expired challenge. */
export function mfaFailureAlert(error: LimeAuthError): AuthAlert {
  if (error.kind === 'api' && error.code === 'mfa_verification_failed') return { key: 'mfaInvalidCode', tone: 'error' };
  if (error.kind === 'api' && error.code === 'mfa_challenge_expired') return { key: 'mfaChallengeExpired', tone: 'error' };
  return unexpected;
}

/** The confirmation code was refused: wrong, used, expired or voided by wrong tries (GoTrue's otp_expired). */
export function emailCodeFailureAlert(error: LimeAuthError): AuthAlert {
  return error.kind === 'api' && error.code === 'otp_expired' ? { key: 'emailCodeInvalid', tone: 'error' } : unexpected;
}

/** The text of an alert in the given strings table (provider ids become display names). */
export function formatAlert(alert: AuthAlert, strings: typeof authStrings): string {
  const values: Record<string, string> = {};
  if (alert.values?.email !== undefined) values.email = alert.values.email;
  if (alert.values?.message !== undefined) values.message = alert.values.message;
  if (alert.values?.provider !== undefined) values.provider = strings.providers[alert.values.provider];
  return formatString(strings.messages[alert.key], values);
}
