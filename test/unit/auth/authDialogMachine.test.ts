import { describe, expect, it } from 'vitest';
import { formatAlert } from '../../../src/auth/alerts';
import { authStrings } from '../../../src/config/strings/auth';
import { isSamePlace } from '../../../src/auth/types';
import { apiError, fakeSession, fakeUser, networkError, sessionMissingError, startDialog, unexpectedError, type Dialog } from './harness';

const alertText = (dialog: Dialog) => {
  const alert = dialog.context().alert;
  return alert ? formatAlert(alert, authStrings) : null;
};
const leaf = (dialog: Dialog) => JSON.stringify(dialog.snapshot().value);

describe('auth dialog: where it starts (product-rules §4 "Sign-in page states")', () => {
  it('opens at page_state 1 (sign in) by default', () => {
    const d = startDialog();
    expect(d.context().screen).toBe('signIn');
    expect(d.snapshot().matches({ screens: { signIn: 'idle' } })).toBe(true);
  });

  it.each([
    ['signUp', { screens: { signUp: 'idle' } }],
    ['signIn', { screens: { signIn: 'idle' } }],
    ['accountCreated', { screens: { accountCreated: 'idle' } }],
    ['recover', { screens: { recover: 'idle' } }],
    ['recoverySent', { screens: 'recoverySent' }],
    ['setPassword', { screens: { setPassword: 'verifying' } }],
    ['passwordReset', { screens: 'passwordReset' }],
  ] as const)('opens at %s when asked', (screen, value) => {
    const d = startDialog({ screen });
    expect(d.context().screen).toBe(screen);
    expect(d.snapshot().matches(value as never)).toBe(true);
  });

  it('overlay mode forces state 1 at start, whatever page_state or query it is given', () => {
    for (const input of [{ screen: 'signUp' }, { screen: 'setPassword' }, { passwordReset: true }, { emailConfirmed: true }] as const) {
      const d = startDialog({ mode: 'overlay', ...input });
      expect(d.context().screen).toBe('signIn');
      expect(d.context().alert).toBeNull();
    }
  });

  it('emailconfirmed=true lands on sign-in with a confirmation notice (designed text)', () => {
    const d = startDialog({ emailConfirmed: true });
    expect(d.context().screen).toBe('signIn');
    expect(alertText(d)).toBe('Your e-mail address is confirmed. You can now sign in.');
  });

  it('emailconfirmed=true with an unusable link says so', () => {
    const d = startDialog({ emailConfirmed: true, linkError: true });
    expect(d.context().alert?.key).toBe('confirmLinkInvalid');
    expect(d.context().alert?.tone).toBe('error');
  });
});

describe('auth dialog: validation (product-rules §5)', () => {
  it('sign-in does nothing while the form is invalid, and names each problem', () => {
    const d = startDialog();
    d.send({ type: 'SUBMIT' });
    expect(d.calls.signIn).toHaveLength(0);
    expect(d.context().fieldErrors).toEqual({ email: 'emailRequired', password: 'passwordRequired' });
    expect(authStrings.validation.emailRequired).toBe('E-mail is required');
    expect(authStrings.validation.passwordRequired).toBe('Password is required');

    d.submitCredentials('not-an-email', '12345');
    expect(d.calls.signIn).toHaveLength(0);
    expect(d.context().fieldErrors).toEqual({ email: 'emailInvalid', password: 'passwordTooShort' });
    expect(authStrings.validation.emailInvalid).toBe('E-mail must be valid');
    expect(authStrings.validation.passwordTooShort).toBe('Password must be at least 6 characters');
  });

  it('after a refused submit the errors follow every change', () => {
    const d = startDialog();
    d.send({ type: 'SUBMIT' });
    d.send({ type: 'CHANGE', field: 'email', value: 'ada@example.com' });
    expect(d.context().fieldErrors).toEqual({ password: 'passwordRequired' });
    d.send({ type: 'CHANGE', field: 'password', value: '123456' });
    expect(d.context().fieldErrors).toEqual({});
  });

  it('before any submit, typing shows no errors', () => {
    const d = startDialog();
    d.send({ type: 'CHANGE', field: 'email', value: 'x' });
    expect(d.context().fieldErrors).toEqual({});
  });

  it('sign-up does nothing while the form is invalid', () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials('ada@example.com', '123');
    expect(d.calls.signUp).toHaveLength(0);
    expect(d.context().fieldErrors).toEqual({ password: 'passwordTooShort' });
  });

  it("password recovery with an empty email: 'Please enter your email address.'", () => {
    const d = startDialog({ screen: 'recover' });
    d.send({ type: 'SUBMIT' });
    expect(d.calls.requestRecovery).toHaveLength(0);
    expect(d.context().fieldErrors).toEqual({ email: 'recoveryEmailRequired' });
    expect(authStrings.validation.recoveryEmailRequired).toBe('Please enter your email address.');
  });

  it("set new password: empty gives 'Please enter a new password.', short the 'long.' variant", async () => {
    const d = startDialog({ passwordReset: true });
    await d.resolve('getRecoverySession', fakeSession());
    d.send({ type: 'SUBMIT' });
    expect(d.context().fieldErrors).toEqual({ newPassword: 'newPasswordRequired' });
    d.send({ type: 'CHANGE', field: 'newPassword', value: '12345' });
    expect(d.context().fieldErrors).toEqual({ newPassword: 'newPasswordTooShort' });
    expect(d.calls.updatePassword).toHaveLength(0);
    expect(authStrings.validation.newPasswordRequired).toBe('Please enter a new password.');
    expect(authStrings.validation.newPasswordTooShort).toBe('Password must be at least 6 characters long.');
  });
});

describe('auth dialog: sign up, page_state 0 (product-rules §4, §8)', () => {
  it('sends the trimmed e-mail and the password', () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials('  ada@example.com ', 'secret-pw');
    expect(d.pending('signUp').input).toEqual({ email: 'ada@example.com', password: 'secret-pw' });
    expect(d.snapshot().matches({ screens: { signUp: 'submitting' } })).toBe(true);
  });

  it('sign-up success with the e-mail not yet verified goes to 2, which prompts to check inbox and spam', async () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials();
    await d.resolve('signUp', { user: fakeUser(), session: null });
    expect(d.context().screen).toBe('accountCreated');
    expect(d.context().sentTo).toBe('ada@example.com');
    expect(d.context().password).toBe('');
    expect(authStrings.prompts.accountCreated).toContain('Please check your inbox and spam folder.');
  });

  it('a sign-up that signs in at once (confirmation off) registers and goes to /account/dashboard (product-rules §2)', async () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials();
    await d.resolve('signUp', { user: fakeUser(), session: fakeSession({ access_token: 'tok' }) });
    await d.resolve('checkAssurance', { factorId: null });
    expect(d.pending('registerSignIn').input).toEqual({ accessToken: 'tok' });
    await d.resolve('registerSignIn');
    expect(d.emitted).toEqual([{ type: 'navigate', to: '/account/dashboard' }]);
    expect(d.snapshot().status).toBe('done');
  });

  it('an already confirmed user answered without a session goes to sign in', async () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials();
    await d.resolve('signUp', { user: fakeUser({ email_confirmed_at: new Date().toISOString() }), session: null });
    expect(d.context().screen).toBe('signIn');
    expect(d.context().alert?.key).toBe('emailConfirmed');
  });

  it('the obfuscated user (identities: []) is UserExists, with the resend button (product-rules §8)', async () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials();
    await d.resolve('signUp', { user: fakeUser({ identities: [] }), session: null });
    expect(d.context().screen).toBe('signUp');
    expect(d.context().alert?.action).toBe('resend');
    expect(alertText(d)).toBe(
      "User ada@example.com already exists. Sign in, use another email or reset your password. If you didn't receive the verification e-mail click the following button.",
    );
  });

  it.each(['user_already_exists', 'email_exists'])('error code %s is UserExists (mapped by code)', async (code) => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials();
    await d.reject('signUp', apiError(code, 'Some wording that may change'));
    expect(d.context().alert?.key).toBe('userExists');
  });

  it("other sign-up errors: 'Could not create account: {message}. Please try again later.'", async () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials();
    await d.reject('signUp', apiError('weak_password', 'Password should be at least 6 characters.', 422));
    expect(alertText(d)).toBe('Could not create account: Password should be at least 6 characters. Please try again later.');
    d.submitCredentials();
    await d.reject('signUp', networkError());
    expect(alertText(d)).toBe('Could not create account: Failed to fetch. Please try again later.');
  });

  it("an unexpected sign-up failure: 'An unexpected error occurred. Please try again.'", async () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials();
    await d.reject('signUp', unexpectedError());
    expect(alertText(d)).toBe('An unexpected error occurred. Please try again.');
  });

  it('resend after UserExists: success confirms (designed), failure shows the spec text', async () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials();
    await d.resolve('signUp', { user: fakeUser({ identities: [] }), session: null });
    d.send({ type: 'RESEND' });
    expect(d.pending('resendVerification').input).toEqual({ email: 'ada@example.com' });
    await d.resolve('resendVerification');
    expect(alertText(d)).toBe('We sent a new verification e-mail to ada@example.com. Please check your inbox and spam folder.');

    d.submitCredentials();
    await d.resolve('signUp', { user: fakeUser({ identities: [] }), session: null });
    d.send({ type: 'RESEND' });
    await d.reject('resendVerification', apiError('over_email_send_rate_limit', 'wait', 429));
    expect(alertText(d)).toBe('Could not resend verification email. Please try again later.');
  });

  it('RESEND is ignored unless the message offers it', () => {
    const d = startDialog({ screen: 'signUp' });
    d.send({ type: 'RESEND' });
    expect(d.calls.resendVerification).toHaveLength(0);
  });

  it('the sign-in link goes to 1 and keeps the e-mail, not the password', () => {
    const d = startDialog({ screen: 'signUp' });
    d.send({ type: 'CHANGE', field: 'email', value: 'ada@example.com' });
    d.send({ type: 'CHANGE', field: 'password', value: 'secret-pw' });
    d.send({ type: 'SHOW_SIGN_IN' });
    expect(d.context().screen).toBe('signIn');
    expect(d.context().email).toBe('ada@example.com');
    expect(d.context().password).toBe('');
  });
});

describe('auth dialog: sign in, page_state 1 (product-rules §4, §8)', () => {
  it('sign-in success in page mode registers the sign-in (product-rules §7) and goes to /account', async () => {
    const d = startDialog();
    d.submitCredentials();
    expect(d.pending('signIn').input).toEqual({ email: 'ada@example.com', password: 'secret-pw' });
    await d.resolve('signIn', fakeSession({ access_token: 'tok' }));
    await d.resolve('checkAssurance', { factorId: null });
    expect(leaf(d)).toBe('"registering"');
    expect(d.pending('registerSignIn').input).toEqual({ accessToken: 'tok' });
    await d.resolve('registerSignIn');
    expect(d.emitted).toEqual([{ type: 'navigate', to: '/account' }]);
    expect(d.snapshot().value).toBe('left');
  });

  it('a failed registration still lets the signed-in user through', async () => {
    const d = startDialog();
    d.submitCredentials();
    await d.resolve('signIn', fakeSession());
    await d.resolve('checkAssurance', { factorId: null });
    await d.reject('registerSignIn', new Error('453'));
    expect(d.emitted).toEqual([{ type: 'navigate', to: '/account' }]);
  });

  it('sign-in success in overlay mode emits authenticated with the session, then close', async () => {
    const d = startDialog({ mode: 'overlay' });
    d.submitCredentials();
    const session = fakeSession();
    await d.resolve('signIn', session);
    await d.resolve('checkAssurance', { factorId: null });
    await d.resolve('registerSignIn');
    expect(d.emitted).toEqual([{ type: 'authenticated', session }, { type: 'close' }]);
    expect(d.snapshot().value).toBe('closed');
  });

  it("invalid_credentials: 'Invalid email or password.' and the password is cleared", async () => {
    const d = startDialog();
    d.submitCredentials();
    await d.reject('signIn', apiError('invalid_credentials', 'Invalid login credentials'));
    expect(alertText(d)).toBe('Invalid email or password.');
    expect(d.context().password).toBe('');
    expect(d.snapshot().matches({ screens: { signIn: 'idle' } })).toBe(true);
  });

  it('the message is chosen by code: a reworded server message changes nothing', async () => {
    const d = startDialog();
    d.submitCredentials();
    await d.reject('signIn', apiError('invalid_credentials', 'Totally different words'));
    expect(d.context().alert?.key).toBe('invalidCredentials');
    d.submitCredentials();
    await d.reject('signIn', apiError('something_else', 'Invalid login credentials'));
    expect(d.context().alert?.key).toBe('unexpected');
  });

  it('email_not_confirmed offers to resend the verification e-mail (designed)', async () => {
    const d = startDialog();
    d.submitCredentials();
    await d.reject('signIn', apiError('email_not_confirmed', 'Email not confirmed'));
    expect(d.context().alert).toMatchObject({ key: 'emailNotConfirmed', action: 'resend' });
    d.send({ type: 'RESEND' });
    await d.resolve('resendVerification');
    expect(d.context().alert?.key).toBe('resendSent');
  });

  it('resend from sign-in can fail too', async () => {
    const d = startDialog();
    d.submitCredentials();
    await d.reject('signIn', apiError('email_not_confirmed'));
    d.send({ type: 'RESEND' });
    await d.reject('resendVerification', networkError());
    expect(d.context().alert?.key).toBe('resendFailed');
  });

  it('a network failure during sign-in is the unexpected error', async () => {
    const d = startDialog();
    d.submitCredentials();
    await d.reject('signIn', networkError());
    expect(alertText(d)).toBe('An unexpected error occurred. Please try again.');
  });

  it('forgot-password link: 1 to 3', () => {
    const d = startDialog();
    d.send({ type: 'FORGOT_PASSWORD' });
    expect(d.context().screen).toBe('recover');
  });

  it('the sign-up link: 1 to 0', () => {
    const d = startDialog();
    d.send({ type: 'SHOW_SIGN_UP' });
    expect(d.context().screen).toBe('signUp');
  });
});

describe('auth dialog: social sign-in (product-rules §7, §8)', () => {
  it.each(['google', 'azure', 'github', 'facebook'] as const)('%s: starts the provider sign-in', async (provider) => {
    const d = startDialog();
    d.send({ type: 'SOCIAL', provider });
    expect(d.pending('socialSignIn').input).toEqual({ provider });
    await d.resolve('socialSignIn');
    expect(d.context().alert).toBeNull();
  });

  it("failure: 'Could not sign in with {provider}. ...' with the provider's name", async () => {
    const d = startDialog({ screen: 'signUp' });
    d.send({ type: 'SOCIAL', provider: 'azure' });
    await d.reject('socialSignIn', apiError('provider_disabled'));
    expect(alertText(d)).toBe('Could not sign in with Microsoft. Please try again later or use other login method.');
    d.send({ type: 'SOCIAL', provider: 'github' });
    await d.reject('socialSignIn', networkError());
    expect(alertText(d)).toBe('Could not sign in with GitHub. Please try again later or use other login method.');
  });

  it('an error the provider redirect came back with opens sign-in with that failure, naming the noted provider', () => {
    // The page was opened at sign-up's URL; the returned error wins and shows on sign-in.
    const d = startDialog({ screen: 'signUp', oauthError: { provider: 'google' } });
    expect(d.snapshot().matches({ screens: { signIn: 'idle' } })).toBe(true);
    expect(alertText(d)).toBe('Could not sign in with Google. Please try again later or use other login method.');
    expect(d.context().alert?.tone).toBe('error');
    // Shown once: dismissing it leaves no second copy behind.
    d.send({ type: 'DISMISS_ALERT' });
    expect(d.context().alert).toBeNull();
    expect(d.context().oauthError).toBeNull();
  });

  it('the overlay shows a returned error too', () => {
    const d = startDialog({ mode: 'overlay', oauthError: { provider: 'facebook' } });
    expect(alertText(d)).toBe('Could not sign in with Facebook. Please try again later or use other login method.');
  });

  it('social sign-in works from sign-up (0) too', async () => {
    const d = startDialog({ screen: 'signUp' });
    d.send({ type: 'SOCIAL', provider: 'facebook' });
    await d.resolve('socialSignIn');
    expect(d.snapshot().matches({ screens: { signUp: 'idle' } })).toBe(true);
  });
});

describe('auth dialog: account created, page_state 2', () => {
  it('back to login: 2 to 1', () => {
    const d = startDialog({ screen: 'accountCreated' });
    d.send({ type: 'BACK_TO_LOGIN' });
    expect(d.context().screen).toBe('signIn');
  });

  it('resends the verification e-mail to the address just registered', async () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials('grace@example.com');
    await d.resolve('signUp', { user: fakeUser(), session: null });
    d.send({ type: 'RESEND' });
    expect(d.pending('resendVerification').input).toEqual({ email: 'grace@example.com' });
    await d.resolve('resendVerification');
    expect(d.context().alert).toMatchObject({ key: 'resendSent', values: { email: 'grace@example.com' } });
    d.send({ type: 'RESEND' });
    await d.reject('resendVerification', networkError());
    expect(d.context().alert?.key).toBe('resendFailed');
    expect(d.context().screen).toBe('accountCreated');
  });

  it('the 6-digit code from the e-mail confirms the account: verified for the address, then signed in to the dashboard', async () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials('grace@example.com');
    await d.resolve('signUp', { user: fakeUser(), session: null });
    d.send({ type: 'CHANGE', field: 'emailCode', value: ' 123 456 ' });
    d.send({ type: 'SUBMIT' });
    expect(d.pending('verifyEmailCode').input).toEqual({ email: 'grace@example.com', code: '123456' });
    await d.resolve('verifyEmailCode', fakeSession({ access_token: 'confirmed' }));
    await d.resolve('checkAssurance', { factorId: null });
    expect(d.pending('registerSignIn').input).toEqual({ accessToken: 'confirmed' });
    await d.resolve('registerSignIn');
    expect(d.emitted).toContainEqual({ type: 'navigate', to: '/account/dashboard' });
  });

  it('the code field: empty and not six digits are field errors, and nothing is sent', () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials();
    return d.resolve('signUp', { user: fakeUser(), session: null }).then(() => {
      d.send({ type: 'SUBMIT' });
      expect(d.context().fieldErrors).toEqual({ emailCode: 'emailCodeRequired' });
      d.send({ type: 'CHANGE', field: 'emailCode', value: '12345' });
      expect(d.context().fieldErrors).toEqual({ emailCode: 'mfaCodeInvalid' });
      expect(d.calls.verifyEmailCode).toHaveLength(0);
      expect(authStrings.validation.emailCodeRequired).toBe('Please enter the code from the e-mail.');
    });
  });

  it('a refused code (otp_expired) says so, clears the code and stays on 2; other failures are unexpected', async () => {
    const d = startDialog({ screen: 'signUp' });
    d.submitCredentials();
    await d.resolve('signUp', { user: fakeUser(), session: null });
    d.send({ type: 'CHANGE', field: 'emailCode', value: '000000' });
    d.send({ type: 'SUBMIT' });
    await d.reject('verifyEmailCode', apiError('otp_expired', 'Token has expired or is invalid', 403));
    expect(d.context().screen).toBe('accountCreated');
    expect(d.context().emailCode).toBe('');
    expect(alertText(d)).toBe('Invalid or expired code. Check the e-mail, or resend it to receive a new code.');
    d.send({ type: 'CHANGE', field: 'emailCode', value: '111111' });
    d.send({ type: 'SUBMIT' });
    await d.reject('verifyEmailCode', networkError());
    expect(alertText(d)).toBe('An unexpected error occurred. Please try again.');
  });

  it('without a known address (opened directly at 2) RESEND is ignored', () => {
    const d = startDialog({ screen: 'accountCreated' });
    d.send({ type: 'RESEND' });
    expect(d.calls.resendVerification).toHaveLength(0);
  });
});

describe('auth dialog: password recovery, page_state 3 and 4 (product-rules §4, §8)', () => {
  it('recovery email sent: 3 to 4, with the inbox prompt', async () => {
    const d = startDialog();
    d.send({ type: 'CHANGE', field: 'email', value: 'ada@example.com' });
    d.send({ type: 'FORGOT_PASSWORD' });
    expect(d.context().email).toBe('ada@example.com');
    d.send({ type: 'SUBMIT' });
    expect(d.pending('requestRecovery').input).toEqual({ email: 'ada@example.com' });
    await d.resolve('requestRecovery');
    expect(d.context().screen).toBe('recoverySent');
    expect(d.context().sentTo).toBe('ada@example.com');
    expect(authStrings.prompts.recoverySent).toContain('Please check your inbox and spam folder.');
  });

  it("failure: 'Could not send password recovery email: {message}. Please try again later.'", async () => {
    const d = startDialog({ screen: 'recover' });
    d.send({ type: 'CHANGE', field: 'email', value: 'ada@example.com' });
    d.send({ type: 'SUBMIT' });
    await d.reject(
      'requestRecovery',
      apiError('over_email_send_rate_limit', 'For security purposes, you can only request this after 60 seconds.', 429),
    );
    expect(alertText(d)).toBe(
      'Could not send password recovery email: For security purposes, you can only request this after 60 seconds. Please try again later.',
    );
    expect(d.context().screen).toBe('recover');
    d.send({ type: 'SUBMIT' });
    await d.reject('requestRecovery', unexpectedError());
    expect(d.context().alert?.key).toBe('unexpected');
  });

  it('back to login: 3 to 1, and 4 to 1', () => {
    const d = startDialog({ screen: 'recover' });
    d.send({ type: 'BACK_TO_LOGIN' });
    expect(d.context().screen).toBe('signIn');
    const e = startDialog({ screen: 'recoverySent' });
    e.send({ type: 'BACK_TO_LOGIN' });
    expect(e.context().screen).toBe('signIn');
  });
});

describe('auth dialog: set new password, page_state 5 (product-rules §4, §8)', () => {
  it('a recovery link with a valid session goes to 5', async () => {
    const d = startDialog({ passwordReset: true });
    expect(d.context().screen).toBe('setPassword');
    await d.resolve('getRecoverySession', fakeSession());
    expect(d.snapshot().matches({ screens: { setPassword: 'ready' } })).toBe(true);
  });

  it("without a session: 'Invalid or expired recovery link. ...' and 3", async () => {
    const d = startDialog({ passwordReset: true });
    await d.resolve('getRecoverySession', null);
    expect(d.context().screen).toBe('recover');
    expect(alertText(d)).toBe('Invalid or expired recovery link. Please request a new password reset.');
  });

  it("a session error: 'Session error during password recovery. Please try again.' and 3", async () => {
    const d = startDialog({ passwordReset: true });
    await d.reject('getRecoverySession', networkError());
    expect(d.context().screen).toBe('recover');
    expect(alertText(d)).toBe('Session error during password recovery. Please try again.');
  });

  async function ready() {
    const d = startDialog({ passwordReset: true });
    await d.resolve('getRecoverySession', fakeSession());
    d.send({ type: 'CHANGE', field: 'newPassword', value: 'brand-new-pw' });
    d.send({ type: 'SUBMIT' });
    return d;
  }

  it('success: signs out, goes to 1 with the success alert and the password cleared', async () => {
    const d = await ready();
    expect(d.pending('updatePassword').input).toEqual({ password: 'brand-new-pw' });
    await d.resolve('updatePassword');
    expect(d.calls.signOut).toHaveLength(1);
    await d.resolve('signOut');
    expect(d.context().screen).toBe('signIn');
    expect(d.context().newPassword).toBe('');
    expect(d.context().password).toBe('');
    expect(d.context().alert?.tone).toBe('success');
    expect(alertText(d)).toBe('Password reset successfully! You can now sign in with your new password.');
    expect(d.emitted).toEqual([]);
  });

  it('a failed sign-out after the change still reports success (the password is set)', async () => {
    const d = await ready();
    await d.resolve('updatePassword');
    await d.reject('signOut', networkError());
    expect(d.context().screen).toBe('signIn');
    expect(d.context().alert?.key).toBe('resetSuccess');
  });

  it("failure: 'Could not reset password: {message}. Please try again later.'", async () => {
    const d = await ready();
    await d.reject('updatePassword', apiError('same_password', 'New password should be different from the old password.', 422));
    expect(alertText(d)).toBe('Could not reset password: New password should be different from the old password. Please try again later.');
    expect(d.snapshot().matches({ screens: { setPassword: 'ready' } })).toBe(true);
  });

  it('a lost session while saving is the session error, back to 3', async () => {
    const d = await ready();
    await d.reject('updatePassword', sessionMissingError());
    expect(d.context().screen).toBe('recover');
    expect(d.context().alert?.key).toBe('sessionError');
  });

  it('an unexpected failure while saving', async () => {
    const d = await ready();
    await d.reject('updatePassword', unexpectedError());
    expect(d.context().alert?.key).toBe('unexpected');
  });

  it('stays in 5 while the recovery session reports logged in (USER_UPDATED)', async () => {
    const d = await ready();
    d.send({ type: 'SESSION', loggedIn: true });
    expect(d.context().screen).toBe('setPassword');
    expect(d.emitted).toEqual([]);
  });
});

describe('auth dialog: password reset success, page_state 6', () => {
  it('back to login: 6 to 1', () => {
    const d = startDialog({ screen: 'passwordReset' });
    d.send({ type: 'BACK_TO_LOGIN' });
    expect(d.context().screen).toBe('signIn');
  });
});

describe('auth dialog: a logged-in visitor (product-rules §4)', () => {
  it.each(['signUp', 'signIn', 'accountCreated', 'recover', 'recoverySent', 'passwordReset'] as const)(
    'on the page at %s is registered and sent to /account',
    async (screen) => {
      const d = startDialog({ screen });
      d.send({ type: 'SESSION', loggedIn: true });
      await d.resolve('checkAssurance', { factorId: null });
      expect(d.pending('registerSignIn').input).toEqual({ accessToken: null });
      await d.resolve('registerSignIn');
      expect(d.emitted).toEqual([{ type: 'navigate', to: '/account' }]);
    },
  );

  it('known at start: goes at once (after the second-factor check)', async () => {
    const d = startDialog({ loggedIn: true });
    expect(d.snapshot().value).toEqual({ assuring: 'checking' });
    await d.resolve('checkAssurance', { factorId: null });
    expect(d.snapshot().value).toBe('registering');
  });

  it('arriving from the confirmation link goes to /account/dashboard (product-rules §2)', async () => {
    const d = startDialog({ emailConfirmed: true });
    d.send({ type: 'SESSION', loggedIn: true });
    await d.resolve('checkAssurance', { factorId: null });
    await d.resolve('registerSignIn');
    expect(d.emitted).toEqual([{ type: 'navigate', to: '/account/dashboard' }]);
  });

  it('routes can be configured', async () => {
    const d = startDialog({ routes: { account: '/me' }, loggedIn: true });
    await d.resolve('checkAssurance', { factorId: null });
    await d.resolve('registerSignIn');
    expect(d.emitted).toEqual([{ type: 'navigate', to: '/me' }]);
  });

  it('waits while a request is under way, then goes', async () => {
    const d = startDialog({ screen: 'recover' });
    d.send({ type: 'CHANGE', field: 'email', value: 'ada@example.com' });
    d.send({ type: 'SUBMIT' });
    d.send({ type: 'SESSION', loggedIn: true });
    expect(d.context().screen).toBe('recover');
    await d.resolve('requestRecovery');
    expect(d.snapshot().value).toEqual({ assuring: 'checking' });
  });

  it('the overlay ignores it (the host decides)', () => {
    const d = startDialog({ mode: 'overlay' });
    d.send({ type: 'SESSION', loggedIn: true });
    expect(d.context().screen).toBe('signIn');
    expect(d.calls.registerSignIn).toHaveLength(0);
  });

  it('logged out or unknown changes nothing', () => {
    const d = startDialog();
    d.send({ type: 'SESSION', loggedIn: false });
    d.send({ type: 'SESSION', loggedIn: null });
    expect(d.snapshot().matches({ screens: { signIn: 'idle' } })).toBe(true);
  });
});

describe('auth dialog: never navigates to where the page already is (one-route apps)', () => {
  // In a one-route app every path serves the same page: the sign-in at / went to /account, whose
  // page saw the session and navigated to /account again, for ever (32 loads in 6 s, issue 51).
  it('a signed-in visitor on the page the account route leads to stays, registered, and is shown signed in', async () => {
    const d = startDialog({ loggedIn: true, location: 'http://localhost:5173/account' });
    await d.resolve('checkAssurance', { factorId: null });
    await d.resolve('registerSignIn');
    expect(d.emitted).toEqual([]);
    expect(d.snapshot().value).toBe('stayed');
    expect(d.calls.registerSignIn).toHaveLength(1);
  });

  it('a sign-in on the page the routes lead to (routes at /) emits no navigate', async () => {
    const d = startDialog({ routes: { account: '/', dashboard: '/' }, location: 'http://localhost:5173/' });
    d.submitCredentials();
    await d.resolve('signIn', fakeSession());
    await d.resolve('checkAssurance', { factorId: null });
    await d.resolve('registerSignIn');
    expect(d.emitted).toEqual([]);
    expect(d.snapshot().value).toBe('stayed');
  });

  it('a sign-in elsewhere still navigates, once: / goes to /account, where the next page stays', async () => {
    const first = startDialog({ location: 'http://localhost:5173/' });
    first.submitCredentials();
    await first.resolve('signIn', fakeSession());
    await first.resolve('checkAssurance', { factorId: null });
    await first.resolve('registerSignIn');
    expect(first.emitted).toEqual([{ type: 'navigate', to: '/account' }]);
    // The page /account loads the same app, signed in.
    const second = startDialog({ loggedIn: true, location: 'http://localhost:5173/account' });
    await second.resolve('checkAssurance', { factorId: null });
    await second.resolve('registerSignIn');
    expect(second.emitted).toEqual([]);
  });

  it('sign-ups compare the dashboard route: a page at /account/dashboard stays, sign-ins from it go to /account', async () => {
    const here = 'http://localhost:5173/account/dashboard?tab=1#top';
    const signUp = startDialog({ screen: 'signUp', location: here, routes: { dashboard: '/account/dashboard?tab=1' } });
    signUp.submitCredentials();
    await signUp.resolve('signUp', { user: fakeUser(), session: fakeSession() });
    await signUp.resolve('checkAssurance', { factorId: null });
    await signUp.resolve('registerSignIn');
    expect(signUp.emitted).toEqual([]);
    const signIn = startDialog({ location: here });
    signIn.submitCredentials();
    await signIn.resolve('signIn', fakeSession());
    await signIn.resolve('checkAssurance', { factorId: null });
    await signIn.resolve('registerSignIn');
    expect(signIn.emitted).toEqual([{ type: 'navigate', to: '/account' }]);
  });

  it('the second factor is still asked for before it stays', async () => {
    const d = startDialog({ loggedIn: true, location: 'http://localhost:5173/account' });
    await d.resolve('checkAssurance', { factorId: 'factor-1' });
    expect(d.context().screen).toBe('mfaChallenge');
    d.send({ type: 'CHANGE', field: 'mfaCode', value: '123456' });
    d.send({ type: 'SUBMIT' });
    await d.resolve('verifyMfa', fakeSession());
    await d.resolve('registerSignIn');
    expect(d.snapshot().value).toBe('stayed');
    expect(d.emitted).toEqual([]);
  });

  it("signed out afterwards (the app's own button): the sign-in form again, and a new sign-in stays too", async () => {
    const d = startDialog({ loggedIn: true, location: 'http://localhost:5173/account' });
    await d.resolve('checkAssurance', { factorId: null });
    await d.resolve('registerSignIn');
    d.send({ type: 'SESSION', loggedIn: null });
    expect(d.snapshot().value).toBe('stayed');
    d.send({ type: 'SESSION', loggedIn: false });
    expect(d.snapshot().matches({ screens: { signIn: 'idle' } })).toBe(true);
    expect(d.context()).toMatchObject({ loggedIn: false, session: null, password: '' });
    d.submitCredentials();
    await d.resolve('signIn', fakeSession());
    await d.resolve('checkAssurance', { factorId: null });
    await d.resolve('registerSignIn');
    expect(d.snapshot().value).toBe('stayed');
    expect(d.emitted).toEqual([]);
  });

  it('without a known location (no window) every route is navigated to, as before', async () => {
    const d = startDialog({ loggedIn: true });
    await d.resolve('checkAssurance', { factorId: null });
    await d.resolve('registerSignIn');
    expect(d.emitted).toEqual([{ type: 'navigate', to: '/account' }]);
  });
});

describe('isSamePlace: where page mode would navigate against where the page is', () => {
  it.each([
    ['/account', 'http://localhost:5173/account', true],
    ['/account', 'http://localhost:5173/account/', true],
    ['/account/', 'http://localhost:5173/account', true],
    ['/account', 'http://localhost:5173/account#profile', true],
    ['/', 'http://localhost:5173/', true],
    ['/', 'http://localhost:5173', true],
    ['http://localhost:5173/account', 'http://localhost:5173/account', true],
    ['account', 'http://localhost:5173/account', true],
    ['/?view=account', 'http://localhost:5173/?view=account', true],
    ['/account', 'http://localhost:5173/', false],
    ['/account', 'http://localhost:5173/account/dashboard', false],
    ['/', 'http://localhost:5173/?page_state=1', false],
    ['/?view=account', 'http://localhost:5173/', false],
    ['https://other.example/account', 'http://localhost:5173/account', false],
    ['/account', null, false],
    ['/account', 'not a url', false],
  ] as const)('%s from %s: %s', (to, here, same) => {
    expect(isSamePlace(to, here)).toBe(same);
  });
});

describe('auth dialog: page_state set from outside (value / URL)', () => {
  it('moves to the asked state, clearing messages and passwords', () => {
    const d = startDialog();
    d.send({ type: 'SUBMIT' });
    d.send({ type: 'SET_SCREEN', screen: 'signUp' });
    expect(d.context().screen).toBe('signUp');
    expect(d.context().fieldErrors).toEqual({});
    for (const screen of ['accountCreated', 'recover', 'recoverySent', 'passwordReset', 'signIn'] as const) {
      d.send({ type: 'SET_SCREEN', screen });
      expect(d.context().screen).toBe(screen);
    }
  });

  it('5 checks the recovery session first', () => {
    const d = startDialog();
    d.send({ type: 'SET_SCREEN', screen: 'setPassword' });
    expect(d.snapshot().matches({ screens: { setPassword: 'verifying' } })).toBe(true);
  });

  it('the current state is a no-op (a request under way is not cancelled)', () => {
    const d = startDialog();
    d.submitCredentials();
    d.send({ type: 'SET_SCREEN', screen: 'signIn' });
    expect(d.snapshot().matches({ screens: { signIn: 'submitting' } })).toBe(true);
  });

  it('DISMISS_ALERT clears the message', async () => {
    const d = startDialog();
    d.submitCredentials();
    await d.reject('signIn', apiError('invalid_credentials'));
    d.send({ type: 'DISMISS_ALERT' });
    expect(d.context().alert).toBeNull();
  });
});

describe('auth dialog: the second factor after sign-in (MFA step)', () => {
  async function atChallenge(input: Parameters<typeof startDialog>[0] = {}) {
    const d = startDialog(input);
    d.submitCredentials();
    await d.resolve('signIn', fakeSession({ access_token: 'aal1-token' }));
    await d.resolve('checkAssurance', { factorId: 'factor-1' });
    return d;
  }

  it('a user with a verified TOTP factor is asked for the code, not let through', async () => {
    const d = await atChallenge();
    expect(d.context().screen).toBe('mfaChallenge');
    expect(d.snapshot().matches({ screens: { mfaChallenge: 'ready' } })).toBe(true);
    expect(d.context().mfaFactorId).toBe('factor-1');
    expect(d.calls.registerSignIn).toHaveLength(0);
    expect(d.emitted).toEqual([]);
  });

  it('the code step is not a page_state: a signed-in visitor there is not redirected', async () => {
    const d = await atChallenge();
    d.send({ type: 'SESSION', loggedIn: true });
    expect(d.context().screen).toBe('mfaChallenge');
    expect(d.calls.registerSignIn).toHaveLength(0);
  });

  it('an empty or malformed code is not sent, and says why', async () => {
    const d = await atChallenge();
    d.send({ type: 'SUBMIT' });
    expect(d.context().fieldErrors).toEqual({ mfaCode: 'mfaCodeRequired' });
    d.send({ type: 'CHANGE', field: 'mfaCode', value: '12a45' });
    expect(d.context().fieldErrors).toEqual({ mfaCode: 'mfaCodeInvalid' });
    d.send({ type: 'SUBMIT' });
    expect(d.calls.verifyMfa).toHaveLength(0);
  });

  it('a wrong code is refused with a clear message; the field is emptied for the next try', async () => {
    const d = await atChallenge();
    d.send({ type: 'CHANGE', field: 'mfaCode', value: '000 000' });
    d.send({ type: 'SUBMIT' });
    expect(d.pending('verifyMfa').input).toEqual({ factorId: 'factor-1', code: '000000' });
    await d.reject('verifyMfa', apiError('mfa_verification_failed', 'Invalid TOTP code entered', 422));
    expect(alertText(d)).toBe('Invalid code. Check your authenticator app and enter the current code.');
    expect(d.context().mfaCode).toBe('');
    expect(d.snapshot().matches({ screens: { mfaChallenge: 'ready' } })).toBe(true);
    expect(d.calls.registerSignIn).toHaveLength(0);
  });

  it('an expired challenge and other failures have their own messages', async () => {
    const d = await atChallenge();
    d.send({ type: 'CHANGE', field: 'mfaCode', value: '123456' });
    d.send({ type: 'SUBMIT' });
    await d.reject('verifyMfa', apiError('mfa_challenge_expired', 'Challenge expired', 422));
    expect(alertText(d)).toBe('The code request expired. Please enter the current code again.');
    d.send({ type: 'CHANGE', field: 'mfaCode', value: '123456' });
    d.send({ type: 'SUBMIT' });
    await d.reject('verifyMfa', networkError());
    expect(alertText(d)).toBe('An unexpected error occurred. Please try again.');
  });

  it('the right code: the aal2 session is registered, then the usual way out (page: /account)', async () => {
    const d = await atChallenge();
    d.send({ type: 'CHANGE', field: 'mfaCode', value: '123456' });
    d.send({ type: 'SUBMIT' });
    await d.resolve('verifyMfa', fakeSession({ access_token: 'aal2-token' }));
    expect(d.pending('registerSignIn').input).toEqual({ accessToken: 'aal2-token' });
    await d.resolve('registerSignIn');
    expect(d.emitted).toEqual([{ type: 'navigate', to: '/account' }]);
  });

  it('overlay: authenticated carries the aal2 session, not the password one', async () => {
    const d = await atChallenge({ mode: 'overlay' });
    d.send({ type: 'CHANGE', field: 'mfaCode', value: '123456' });
    d.send({ type: 'SUBMIT' });
    const aal2 = fakeSession({ access_token: 'aal2-token' });
    await d.resolve('verifyMfa', aal2);
    await d.resolve('registerSignIn');
    expect(d.emitted).toEqual([{ type: 'authenticated', session: aal2 }, { type: 'close' }]);
  });

  it('cancelling signs the half-signed-in user out and returns to sign-in', async () => {
    const d = await atChallenge();
    d.send({ type: 'CANCEL' });
    await d.resolve('signOut');
    expect(d.context().screen).toBe('signIn');
    expect(d.context().mfaFactorId).toBeNull();
    expect(d.context().loggedIn).toBe(false);
    expect(d.snapshot().matches({ screens: { signIn: 'idle' } })).toBe(true);
  });

  it('a logged-in visitor with a factor is challenged too (the page redirect goes through the check)', async () => {
    const d = startDialog({ loggedIn: true });
    await d.resolve('checkAssurance', { factorId: 'factor-1' });
    expect(d.context().screen).toBe('mfaChallenge');
  });

  it('fails closed: when the check itself fails, the sign-in is undone with a message', async () => {
    const d = startDialog();
    d.submitCredentials();
    await d.resolve('signIn', fakeSession());
    await d.reject('checkAssurance', networkError());
    await d.resolve('signOut');
    expect(d.context().screen).toBe('signIn');
    expect(alertText(d)).toBe('An unexpected error occurred. Please try again.');
    expect(d.calls.registerSignIn).toHaveLength(0);
  });
});
