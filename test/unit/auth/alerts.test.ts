import {
  AuthApiError,
  AuthRetryableFetchError,
  AuthSessionMissingError,
  AuthUnknownError,
  AuthWeakPasswordError,
  AuthImplicitGrantRedirectError,
} from '@supabase/auth-js';
import { describe, expect, it } from 'vitest';
import {
  formatAlert,
  mfaFailureAlert,
  recoveryFailureAlert,
  resetFailureAlert,
  signInFailureAlert,
  signUpFailureAlert,
  socialFailureAlert,
} from '../../../src/auth/alerts';
import { LimeAuthError, messageForTemplate, toLimeAuthError } from '../../../src/auth/errors';
import { AZURE_SCOPES, scopesFor, SOCIAL_PROVIDERS } from '../../../src/auth/socialProviders';
import { authStrings } from '../../../src/config/strings/auth';
import { mergeStrings } from '../../../src/config/strings';

const text = (alert: Parameters<typeof formatAlert>[0]) => formatAlert(alert, authStrings);

describe('auth-js errors are normalised, keeping the cause', () => {
  it('API errors keep code and status', () => {
    const cause = new AuthApiError('Invalid login credentials', 400, 'invalid_credentials');
    const error = toLimeAuthError(cause);
    expect(error).toBeInstanceOf(LimeAuthError);
    expect(error.name).toBe('LimeAuthError');
    expect(error).toMatchObject({ kind: 'api', code: 'invalid_credentials', status: 400, cause });
  });

  it('weak password is an API error with its code', () => {
    expect(toLimeAuthError(new AuthWeakPasswordError('Password should be at least 6 characters.', 422, ['length']))).toMatchObject({
      kind: 'api',
      code: 'weak_password',
    });
  });

  it('retryable fetch errors are network failures; a missing session is its own kind', () => {
    expect(toLimeAuthError(new AuthRetryableFetchError('Failed to fetch', 0)).kind).toBe('network');
    expect(toLimeAuthError(new AuthSessionMissingError()).kind).toBe('session-missing');
  });

  it('redirect errors carry the code from the link', () => {
    const error = new AuthImplicitGrantRedirectError('Email link is invalid or has expired', {
      error: 'access_denied',
      code: 'otp_expired',
    });
    expect(toLimeAuthError(error)).toMatchObject({ kind: 'api', code: 'otp_expired' });
  });

  it('anything else is unexpected', () => {
    expect(toLimeAuthError(new AuthUnknownError('bad json', null)).kind).toBe('unexpected');
    expect(toLimeAuthError(new TypeError('x is undefined')).kind).toBe('unexpected');
    expect(toLimeAuthError('weird').message).toBe('weird');
  });

  it('{message} loses its final full stop (the template adds one)', () => {
    expect(messageForTemplate({ message: ' Email rate limit exceeded. ' })).toBe('Email rate limit exceeded');
  });
});

describe('sign-in page messages (product-rules §8), chosen by code', () => {
  const api = (code: string, message = 'whatever the server says') => toLimeAuthError(new AuthApiError(message, 400, code));

  it("sign-in failure: 'Invalid email or password.'", () => {
    for (const code of ['invalid_credentials', 'user_not_found', 'validation_failed', 'user_banned']) {
      expect(text(signInFailureAlert(api(code), 'ada@example.com'))).toBe('Invalid email or password.');
    }
  });

  it('sign-in with a reworded server message still maps by code; an unknown code is unexpected', () => {
    expect(signInFailureAlert(api('over_request_rate_limit', 'Invalid login credentials'), '').key).toBe('unexpected');
  });

  it('UserExists names the address and offers to resend', () => {
    const alert = signUpFailureAlert(api('user_already_exists', 'User already registered'), ' ada@example.com ');
    expect(alert.action).toBe('resend');
    expect(text(alert)).toBe(
      "User ada@example.com already exists. Sign in, use another email or reset your password. If you didn't receive the verification e-mail click the following button.",
    );
  });

  it('every product-rules §8 sign-in page text, letter for letter', () => {
    expect(text(signUpFailureAlert(api('signup_disabled', 'Signups not allowed for this instance'), ''))).toBe(
      'Could not create account: Signups not allowed for this instance. Please try again later.',
    );
    expect(text(socialFailureAlert('google'))).toBe('Could not sign in with Google. Please try again later or use other login method.');
    expect(text({ key: 'resendFailed', tone: 'error' })).toBe('Could not resend verification email. Please try again later.');
    expect(text(recoveryFailureAlert(api('over_email_send_rate_limit', 'Email rate limit exceeded')))).toBe(
      'Could not send password recovery email: Email rate limit exceeded. Please try again later.',
    );
    expect(text({ key: 'sessionError', tone: 'error' })).toBe('Session error during password recovery. Please try again.');
    expect(text({ key: 'invalidLink', tone: 'error' })).toBe('Invalid or expired recovery link. Please request a new password reset.');
    expect(text(resetFailureAlert(api('same_password', 'New password should be different from the old password.')))).toBe(
      'Could not reset password: New password should be different from the old password. Please try again later.',
    );
    expect(text({ key: 'unexpected', tone: 'error' })).toBe('An unexpected error occurred. Please try again.');
    expect(text({ key: 'resetSuccess', tone: 'success' })).toBe('Password reset successfully! You can now sign in with your new password.');
  });

  it('a lost session while resetting is the session error', () => {
    expect(resetFailureAlert(toLimeAuthError(new AuthSessionMissingError())).key).toBe('sessionError');
  });

  it('texts follow a strings override (embeds translate them)', () => {
    const strings = mergeStrings({
      auth: { messages: { invalidCredentials: 'Falsche E-Mail oder falsches Passwort.' }, providers: { azure: 'Azure' } },
    });
    expect(formatAlert(signInFailureAlert(api('invalid_credentials'), ''), strings.auth)).toBe('Falsche E-Mail oder falsches Passwort.');
    expect(formatAlert(socialFailureAlert('azure'), strings.auth)).toBe(
      'Could not sign in with Azure. Please try again later or use other login method.',
    );
  });
});

describe('the MFA step messages (designed), chosen by code', () => {
  const text = (error: LimeAuthError) => formatAlert(mfaFailureAlert(error), authStrings);
  it('a wrong code, an expired challenge, anything else', () => {
    expect(text(new LimeAuthError('Invalid TOTP code entered', { kind: 'api', code: 'mfa_verification_failed', status: 422 }))).toBe(
      'Invalid code. Check your authenticator app and enter the current code.',
    );
    expect(text(new LimeAuthError('expired', { kind: 'api', code: 'mfa_challenge_expired', status: 422 }))).toBe(
      'The code request expired. Please enter the current code again.',
    );
    expect(text(new LimeAuthError('Failed to fetch', { kind: 'network', status: 0 }))).toBe(
      'An unexpected error occurred. Please try again.',
    );
  });
});

describe('social providers (product-rules §7)', () => {
  it('four providers; the cloud provider asks for openid, profile, email, offline_access', () => {
    expect(SOCIAL_PROVIDERS).toEqual(['google', 'azure', 'github', 'facebook']);
    expect(AZURE_SCOPES).toBe('openid profile email offline_access');
    expect(scopesFor('azure')).toBe(AZURE_SCOPES);
    expect(scopesFor('github')).toBeUndefined();
  });
});
