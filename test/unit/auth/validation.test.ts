import { describe, expect, it } from 'vitest';
import {
  MFA_CODE_LENGTH,
  validateEmail,
  validateForm,
  validateMfaCode,
  validateNewPassword,
  validatePassword,
  validateRecoveryEmail,
  PASSWORD_MIN_LENGTH,
} from '../../../src/auth/validation';
import { authStrings } from '../../../src/config/strings/auth';

const text = (key: keyof typeof authStrings.validation | undefined) => (key ? authStrings.validation[key] : undefined);

describe('validation (product-rules §5)', () => {
  it("e-mail: required ('E-mail is required'), then a valid address ('E-mail must be valid')", () => {
    expect(text(validateEmail(''))).toBe('E-mail is required');
    expect(text(validateEmail('   '))).toBe('E-mail is required');
    for (const bad of ['ada', 'ada@', '@example.com', 'ada@example', 'a da@example.com', 'ada@exa mple.com', 'ada@@example.com']) {
      expect(text(validateEmail(bad)), bad).toBe('E-mail must be valid');
    }
    for (const good of ['ada@example.com', ' ada@example.com ', 'a.b+c@sub.example.co.uk', 'demo@limelight.dev']) {
      expect(validateEmail(good), good).toBeUndefined();
    }
  });

  it(`password (sign-in and sign-up): required, at least ${PASSWORD_MIN_LENGTH} characters (product-rules §9: minimum 6)`, () => {
    expect(PASSWORD_MIN_LENGTH).toBe(6);
    expect(text(validatePassword(''))).toBe('Password is required');
    expect(text(validatePassword('12345'))).toBe('Password must be at least 6 characters');
    expect(validatePassword('123456')).toBeUndefined();
    // Spaces count: a password is not trimmed.
    expect(validatePassword('      ')).toBeUndefined();
  });

  it("set new password: 'Please enter a new password.', 'Password must be at least 6 characters long.'", () => {
    expect(text(validateNewPassword(''))).toBe('Please enter a new password.');
    expect(text(validateNewPassword('abcde'))).toBe('Password must be at least 6 characters long.');
    expect(validateNewPassword('abcdef')).toBeUndefined();
  });

  it("password recovery with an empty e-mail: 'Please enter your email address.'", () => {
    expect(text(validateRecoveryEmail(''))).toBe('Please enter your email address.');
    expect(text(validateRecoveryEmail(' '))).toBe('Please enter your email address.');
    expect(text(validateRecoveryEmail('nope'))).toBe('E-mail must be valid');
    expect(validateRecoveryEmail('ada@example.com')).toBeUndefined();
  });

  it('validates whole forms; an empty result means valid', () => {
    expect(validateForm('credentials', { email: '', password: '', newPassword: '' })).toEqual({
      email: 'emailRequired',
      password: 'passwordRequired',
    });
    expect(validateForm('credentials', { email: 'ada@example.com', password: 'secret', newPassword: '' })).toEqual({});
    expect(validateForm('recovery', { email: '', password: '', newPassword: '' })).toEqual({ email: 'recoveryEmailRequired' });
    expect(validateForm('newPassword', { email: '', password: '', newPassword: '123' })).toEqual({ newPassword: 'newPasswordTooShort' });
  });

  it('the MFA code: required, six digits; the spaces an app shows between groups are allowed', () => {
    expect(MFA_CODE_LENGTH).toBe(6);
    expect(text(validateMfaCode(''))).toBe('Please enter the code from your authenticator app.');
    expect(text(validateMfaCode('   '))).toBe('Please enter the code from your authenticator app.');
    expect(text(validateMfaCode('12345'))).toBe('The code has 6 digits.');
    expect(text(validateMfaCode('1234567'))).toBe('The code has 6 digits.');
    expect(text(validateMfaCode('12a456'))).toBe('The code has 6 digits.');
    expect(validateMfaCode('123456')).toBeUndefined();
    expect(validateMfaCode(' 123 456 ')).toBeUndefined();
    expect(validateForm('mfaCode', { email: '', password: '', newPassword: '', mfaCode: '1' })).toEqual({ mfaCode: 'mfaCodeInvalid' });
  });
});
