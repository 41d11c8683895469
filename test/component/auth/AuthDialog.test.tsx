import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthDialog, type PageScreen } from '../../../src/components/AuthDialog';
import { isPageScreen } from '../../../src/auth/screens';
import { authStrings } from '../../../src/config/strings/auth';
import { expectNoAxeViolations } from '../../setup/axe';
import { apiError, fakeSession, mount } from './setup';

// The dialog asks the auth server which social providers are on (GET /auth/v1/settings); here
// it answers like a server with all four configured, unless a test says otherwise.
let enabled: Record<string, boolean> = { google: true, azure: true, github: true, facebook: true };
beforeEach(() => {
  enabled = { google: true, azure: true, github: true, facebook: true };
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
    String(input instanceof Request ? input.url : input).endsWith('/auth/v1/settings')
      ? Promise.resolve(Response.json({ external: { email: true, ...enabled } }))
      : realFetch(input, init),
  );
});

// The designed titles, from the strings table the dialog reads.
const titles: Record<PageScreen, string> = authStrings.titles;

async function heading(name: string) {
  return screen.findByRole('heading', { name });
}

function noInlineStyles(root: ParentNode = document.body) {
  expect(root.querySelectorAll('[style]')).toHaveLength(0);
}

describe('AuthDialog, page mode (product-rules §2 sign-in page, §4 page states)', () => {
  it.each(['signUp', 'signIn', 'accountCreated', 'recover', 'recoverySent', 'passwordReset'] as const)(
    'renders %s, axe clean, no inline styles',
    async (screenName) => {
      mount((actors) => <AuthDialog value={screenName} actors={actors} />);
      expect(await heading(titles[screenName])).toBeTruthy();
      await expectNoAxeViolations(document);
      noInlineStyles();
    },
  );

  it('renders page_state 5 once the recovery session is confirmed, axe clean', async () => {
    const m = mount((actors) => <AuthDialog value="setPassword" actors={actors} />);
    await heading('Set new password');
    expect(screen.getByRole('status')).toHaveTextContent('Please wait…');
    await act(async () => m.last('getRecoverySession').resolve(fakeSession()));
    expect(await screen.findByLabelText('New password')).toBeTruthy();
    await expectNoAxeViolations(document);
  });

  it('sign-in page: e-mail, password, forgot password, sign-up link and four social providers', async () => {
    mount((actors) => <AuthDialog actors={actors} />);
    await heading('Sign in');
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeTruthy();
    const social = (await screen.findAllByRole('button', { name: /^Continue with / })).map((b) => b.textContent);
    expect(social).toEqual(['Continue with Google', 'Continue with Microsoft', 'Continue with GitHub', 'Continue with Facebook']);
  });

  it('shows only the providers the auth server has turned on', async () => {
    enabled = { google: false, azure: false, github: true, facebook: false };
    mount((actors) => <AuthDialog actors={actors} />);
    await heading('Sign in');
    expect(await screen.findByRole('button', { name: 'Continue with GitHub' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Continue with / })).toHaveLength(1);
  });

  it('each provider button carries its logo, hidden from assistive technology, one provider a line', async () => {
    mount((actors) => <AuthDialog actors={actors} />);
    await heading('Sign in');
    const buttons = await screen.findAllByRole('button', { name: /^Continue with / });
    for (const button of buttons) {
      const logo = button.querySelector('svg');
      expect(logo, button.textContent ?? '').not.toBeNull();
      expect(logo).toHaveAttribute('aria-hidden', 'true');
      expect(logo!.querySelectorAll('path').length).toBeGreaterThan(0);
    }
    // One a line: each button starts below the one before.
    const tops = buttons.map((b) => b.getBoundingClientRect().top);
    expect(tops).toEqual([...tops].sort((x, y) => x - y));
    expect(new Set(tops).size).toBe(buttons.length);
    await expectNoAxeViolations(document);
  });

  it('account created: the code from the e-mail confirms the account and goes to the dashboard', async () => {
    const user = userEvent.setup();
    const m = mount((actors) => <AuthDialog defaultValue="signUp" actors={actors} />);
    await heading('Create your account');
    await user.type(screen.getByLabelText('E-mail'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pw');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await act(async () => m.last('signUp').resolve({ user: fakeSession().user, session: null }));
    await heading('Account created');
    await expectNoAxeViolations(document);
    const code = screen.getByLabelText('Confirmation code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    await user.click(screen.getByRole('button', { name: 'Confirm account' }));
    expect(code).toHaveAccessibleDescription('Please enter the code from the e-mail.');
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm account' }));
    expect(m.last('verifyEmailCode').input).toEqual({ email: 'grace@example.com', code: '123456' });
    await act(async () => m.last('verifyEmailCode').reject(apiError('otp_expired', 'Token has expired or is invalid')));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid or expired code.');
    await user.type(screen.getByLabelText('Confirmation code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Confirm account' }));
    await act(async () => m.last('verifyEmailCode').resolve(fakeSession({ access_token: 'confirmed' })));
    await act(async () => m.last('checkAssurance').resolve({ factorId: null }));
    await act(async () => m.last('registerSignIn').resolve());
    await waitFor(() => expect(m.navigate).toHaveBeenCalledWith('/account/dashboard'));
  });

  it('a show-password toggle reveals and hides the password', async () => {
    const user = userEvent.setup();
    mount((actors) => <AuthDialog actors={actors} />);
    await heading('Sign in');
    const password = screen.getByLabelText('Password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'password');
  });

  it('product-rules §5: an invalid form is not sent; each field names its problem', async () => {
    const user = userEvent.setup();
    const m = mount((actors) => <AuthDialog actors={actors} />);
    await heading('Sign in');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const email = screen.getByLabelText('E-mail');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('E-mail is required');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required');
    expect(m.calls.signIn).toHaveLength(0);
    await user.type(email, 'nope');
    expect(email).toHaveAccessibleDescription('E-mail must be valid');
    await user.type(screen.getByLabelText('Password'), '123');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password must be at least 6 characters');
    await expectNoAxeViolations(document);
  });

  it("product-rules §8: a failed sign-in shows 'Invalid email or password.' as an alert", async () => {
    const user = userEvent.setup();
    const m = mount((actors) => <AuthDialog actors={actors} />);
    await heading('Sign in');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(m.last('signIn').input).toEqual({ email: 'ada@example.com', password: 'wrong-password' });
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled();
    await act(async () => m.last('signIn').reject(apiError('invalid_credentials', 'Invalid login credentials')));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    await expectNoAxeViolations(document);
    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('product-rules §2: sign-in success registers the sign-in and navigates to /account', async () => {
    const user = userEvent.setup();
    const m = mount((actors) => <AuthDialog actors={actors} />);
    await heading('Sign in');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await act(async () => m.last('signIn').resolve(fakeSession({ access_token: 'tok' })));
    await act(async () => m.last('checkAssurance').resolve({ factorId: null }));
    expect(m.last('registerSignIn').input).toEqual({ accessToken: 'tok' });
    await act(async () => m.last('registerSignIn').resolve());
    await waitFor(() => expect(m.navigate).toHaveBeenCalledWith('/account'));
    expect(screen.getByRole('status')).toHaveTextContent('Signing you in…');
  });

  it('product-rules §4, §8: sign-up for an existing user shows UserExists with a working resend button', async () => {
    const user = userEvent.setup();
    const m = mount((actors) => <AuthDialog defaultValue="signUp" actors={actors} />);
    await heading('Create your account');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'new-password');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pw');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await act(async () => m.last('signUp').reject(apiError('user_already_exists', 'User already registered')));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      "User ada@example.com already exists. Sign in, use another email or reset your password. If you didn't receive the verification e-mail click the following button.",
    );
    await user.click(within(alert).getByRole('button', { name: 'Resend verification email' }));
    expect(m.last('resendVerification').input).toEqual({ email: 'ada@example.com' });
    await act(async () => m.last('resendVerification').resolve());
    expect(await screen.findByRole('status')).toHaveTextContent('We sent a new verification e-mail to ada@example.com.');
    await expectNoAxeViolations(document);
  });

  it('product-rules §4: sign-up success goes to 2 with the inbox and spam prompt', async () => {
    const user = userEvent.setup();
    const onValueChange = vi.fn();
    const m = mount((actors) => <AuthDialog defaultValue="signUp" onValueChange={onValueChange} actors={actors} />);
    await heading('Create your account');
    await user.type(screen.getByLabelText('E-mail'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pw');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await act(async () => m.last('signUp').resolve({ user: fakeSession().user, session: null }));
    expect(await heading('Account created')).toHaveFocus();
    expect(screen.getByText(/We sent a confirmation link to grace@example.com. Please check your inbox and spam folder./)).toBeTruthy();
    expect(onValueChange).toHaveBeenLastCalledWith('accountCreated');
  });

  it('product-rules §4: forgot password 1 to 3, recovery email sent 3 to 4 with the prompt, back to login 4 to 1', async () => {
    const user = userEvent.setup();
    const onValueChange = vi.fn();
    const m = mount((actors) => <AuthDialog onValueChange={onValueChange} actors={actors} />);
    await heading('Sign in');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(await heading('Password recovery')).toHaveFocus();
    expect(onValueChange).toHaveBeenLastCalledWith('recover');
    await user.click(screen.getByRole('button', { name: 'Send recovery email' }));
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Please enter your email address.');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send recovery email' }));
    await act(async () => m.last('requestRecovery').resolve());
    await heading('Recovery email sent');
    expect(screen.getByText(/Please check your inbox and spam folder\./)).toBeTruthy();
    expect(onValueChange).toHaveBeenLastCalledWith('recoverySent');
    await user.click(screen.getByRole('button', { name: 'Back to login' }));
    await heading('Sign in');
    expect(onValueChange).toHaveBeenLastCalledWith('signIn');
  });

  it('product-rules §4: recovery link without a session shows the invalid-link error on 3', async () => {
    const m = mount((actors) => <AuthDialog passwordReset actors={actors} />);
    await heading('Set new password');
    await act(async () => m.last('getRecoverySession').resolve(null));
    await heading('Password recovery');
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid or expired recovery link. Please request a new password reset.');
  });

  it('product-rules §4: a new password set goes to 1 with the success alert, signed out', async () => {
    const user = userEvent.setup();
    const m = mount((actors) => <AuthDialog passwordReset actors={actors} />);
    await heading('Set new password');
    await act(async () => m.last('getRecoverySession').resolve(fakeSession()));
    await user.click(await screen.findByRole('button', { name: 'Set new password' }));
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription('Please enter a new password.');
    await user.type(screen.getByLabelText('New password'), 'brand-new-pw');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    await act(async () => m.last('updatePassword').resolve());
    await act(async () => m.last('signOut').resolve());
    await heading('Sign in');
    expect(screen.getByRole('status')).toHaveTextContent('Password reset successfully! You can now sign in with your new password.');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('product-rules §7, §8: social sign-in starts the provider; failure names it', async () => {
    const user = userEvent.setup();
    const m = mount((actors) => <AuthDialog actors={actors} />);
    await heading('Sign in');
    await user.click(await screen.findByRole('button', { name: 'Continue with Microsoft' }));
    expect(m.last('socialSignIn').input).toEqual({ provider: 'azure' });
    await act(async () => m.last('socialSignIn').reject(apiError('provider_disabled')));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not sign in with Microsoft. Please try again later or use other login method.',
    );
  });

  it('value is controlled: a new value moves the dialog', async () => {
    function Host() {
      const [value, setValue] = useState<PageScreen>('signIn');
      return (
        <>
          <button type="button" onClick={() => setValue('signUp')}>
            go to sign up
          </button>
          <AuthDialog value={value} onValueChange={(next) => isPageScreen(next) && setValue(next)} actors={m.actors} />
        </>
      );
    }
    const m = { actors: {} as never };
    mount((actors) => {
      m.actors = actors as never;
      return <Host />;
    });
    await heading('Sign in');
    await userEvent.click(screen.getByRole('button', { name: 'go to sign up' }));
    await heading('Create your account');
  });

  it('product-rules §4: a logged-in visitor on the page is sent to /account', async () => {
    const m = mount((actors) => <AuthDialog actors={actors} />, { storedSession: fakeSession() });
    // StrictMode mounts twice; only the surviving actor's registration leads anywhere.
    await waitFor(() => expect(m.calls.checkAssurance.length).toBeGreaterThan(0));
    await act(async () => m.calls.checkAssurance.forEach((call) => call.resolve({ factorId: null })));
    await waitFor(() => expect(m.calls.registerSignIn.length).toBeGreaterThan(0));
    await act(async () => m.calls.registerSignIn.forEach((call) => call.resolve()));
    await waitFor(() => expect(m.navigate).toHaveBeenCalledWith('/account'));
    expect(m.navigate).toHaveBeenCalledTimes(1);
  });

  it('product-rules §2: arriving from the confirmation link signed in goes to /account/dashboard', async () => {
    const m = mount((actors) => <AuthDialog emailConfirmed actors={actors} />, { storedSession: fakeSession() });
    await waitFor(() => expect(m.calls.checkAssurance.length).toBeGreaterThan(0));
    await act(async () => m.calls.checkAssurance.forEach((call) => call.resolve({ factorId: null })));
    await waitFor(() => expect(m.calls.registerSignIn.length).toBeGreaterThan(0));
    await act(async () => m.calls.registerSignIn.forEach((call) => call.resolve()));
    await waitFor(() => expect(m.navigate).toHaveBeenCalledWith('/account/dashboard'));
    expect(m.navigate).toHaveBeenCalledTimes(1);
  });
});

describe('AuthDialog, overlay mode (product-rules §2 "may also be shown as an overlay", §4)', () => {
  function OverlayHost(props: { actors: never; onAuthenticated?: (s: unknown) => void; onClose?: () => void; defaultValue?: PageScreen }) {
    const [open, setOpen] = useState(false);
    return (
      <>
        <h1>Host page</h1>
        <button type="button" onClick={() => setOpen(true)}>
          Log in
        </button>
        <AuthDialog
          mode="overlay"
          open={open}
          onOpenChange={setOpen}
          onClose={props.onClose}
          onAuthenticated={props.onAuthenticated}
          defaultValue={props.defaultValue}
          actors={props.actors}
        />
      </>
    );
  }

  async function openOverlay(extra: Partial<Parameters<typeof OverlayHost>[0]> = {}) {
    const user = userEvent.setup();
    const m = mount((actors) => <OverlayHost actors={actors as never} {...extra} />);
    const opener = screen.getByRole('button', { name: 'Log in' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog');
    return { user, m, opener, dialog };
  }

  it('is a modal dialog titled Sign in, with a close button, forced to sign-in; axe clean', async () => {
    const { dialog } = await openOverlay({ defaultValue: 'signUp' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog).toHaveAttribute('open');
    expect(dialog).toHaveAccessibleName('Sign in');
    expect(dialog.matches(':modal')).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await expectNoAxeViolations(document);
    noInlineStyles();
  });

  it('keeps focus inside: Tab and Shift+Tab wrap around', async () => {
    const { user, dialog } = await openOverlay();
    for (let i = 0; i < 15; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement), `after ${i + 1} Tab`).toBe(true);
    }
    for (let i = 0; i < 15; i++) {
      await user.tab({ shift: true });
      expect(dialog.contains(document.activeElement), `after ${i + 1} Shift+Tab`).toBe(true);
    }
  });

  it('Escape closes it and focus returns to the opener', async () => {
    const onClose = vi.fn();
    const { user, opener } = await openOverlay({ onClose });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(opener).toHaveFocus();
  });

  it('the close button closes it and focus returns to the opener', async () => {
    const onClose = vi.fn();
    const { user, opener, dialog } = await openOverlay({ onClose });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(opener).toHaveFocus();
  });

  it('sign-in success emits authenticated with the session and closes (no navigation)', async () => {
    const onAuthenticated = vi.fn();
    const onClose = vi.fn();
    const { user, m, dialog, opener } = await openOverlay({ onAuthenticated, onClose });
    await user.type(within(dialog).getByLabelText('E-mail'), 'ada@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'secret-pw');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    const session = fakeSession();
    await act(async () => m.last('signIn').resolve(session));
    await act(async () => m.last('checkAssurance').resolve({ factorId: null }));
    await act(async () => m.last('registerSignIn').resolve());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onAuthenticated).toHaveBeenCalledWith(session);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(m.navigate).not.toHaveBeenCalled();
    expect(opener).toHaveFocus();
  });

  it('each opening starts afresh at state 1', async () => {
    const { user, dialog, opener } = await openOverlay();
    await user.click(within(dialog).getByRole('button', { name: 'Sign up' }));
    await heading('Create your account');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(opener);
    expect(await screen.findByRole('dialog')).toHaveAccessibleName('Sign in');
  });

  it('renders into portalContainer when given (e.g. a node inside a shadow root)', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const container = document.createElement('div');
    shadow.append(container);
    mount((actors) => <AuthDialog mode="overlay" portalContainer={container} actors={actors} />);
    await waitFor(() => expect(container.querySelector('dialog[open]')).not.toBeNull());
    expect(document.body.querySelector('dialog')).toBeNull();
    host.remove();
  });

  it.each(['signUp', 'accountCreated', 'recover', 'recoverySent', 'passwordReset'] as const)(
    'moves to a controlled value %s after its forced start; axe clean',
    async (screenName) => {
      mount((actors) => <AuthDialog mode="overlay" value={screenName} actors={actors} />);
      expect(await screen.findByRole('dialog')).toBeTruthy();
      await heading(titles[screenName]);
      await expectNoAxeViolations(document);
    },
  );
});

describe('AuthDialog, the code step for a user with a second factor', () => {
  async function signInWithFactor(mode: 'page' | 'overlay' = 'page', extra: { onAuthenticated?: (s: unknown) => void } = {}) {
    const user = userEvent.setup();
    const onValueChange = vi.fn();
    const m = mount((actors) => <AuthDialog mode={mode} onValueChange={onValueChange} actors={actors} {...extra} />);
    await heading('Sign in');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await act(async () => m.last('signIn').resolve(fakeSession({ access_token: 'aal1' })));
    await act(async () => m.last('checkAssurance').resolve({ factorId: 'factor-1' }));
    return { user, m, onValueChange };
  }

  it('asks for the code after the password: focused title, a numeric one-time-code field; axe clean', async () => {
    const { m, onValueChange } = await signInWithFactor();
    expect(await heading('Two-factor authentication')).toHaveFocus();
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
    const field = screen.getByLabelText('Authentication code');
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled();
    expect(onValueChange).toHaveBeenLastCalledWith('mfaChallenge');
    expect(m.calls.registerSignIn).toHaveLength(0);
    expect(m.navigate).not.toHaveBeenCalled();
    await expectNoAxeViolations(document);
    noInlineStyles();
  });

  it('an empty code is not sent: the field says why and is marked invalid; axe clean', async () => {
    const { user, m } = await signInWithFactor();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    const field = screen.getByLabelText('Authentication code');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('Please enter the code from your authenticator app.');
    expect(m.calls.verifyMfa).toHaveLength(0);
    await expectNoAxeViolations(document);
  });

  it('a wrong code is refused with a clear alert; the right one (typed, Enter) signs in to /account', async () => {
    const { user, m } = await signInWithFactor();
    const field = screen.getByLabelText('Authentication code');
    await user.type(field, '000000{Enter}');
    expect(m.last('verifyMfa').input).toEqual({ factorId: 'factor-1', code: '000000' });
    expect(screen.getByRole('button', { name: 'Verify' })).toBeDisabled();
    await act(async () => m.last('verifyMfa').reject(apiError('mfa_verification_failed', 'Invalid TOTP code entered')));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid code. Check your authenticator app and enter the current code.');
    expect(field).toHaveValue('');
    await expectNoAxeViolations(document);

    await user.type(field, '123456{Enter}');
    await act(async () => m.last('verifyMfa').resolve(fakeSession({ access_token: 'aal2' })));
    expect(m.last('registerSignIn').input).toEqual({ accessToken: 'aal2' });
    await act(async () => m.last('registerSignIn').resolve());
    await waitFor(() => expect(m.navigate).toHaveBeenCalledWith('/account'));
  });

  it('cancel signs out and returns to sign-in', async () => {
    const { user, m } = await signInWithFactor();
    await user.click(screen.getByRole('button', { name: 'Cancel and sign out' }));
    await act(async () => m.last('signOut').resolve());
    expect(await heading('Sign in')).toHaveFocus();
    expect(m.navigate).not.toHaveBeenCalled();
  });

  it('overlay: the code step runs inside the dialog; authenticated carries the aal2 session', async () => {
    const onAuthenticated = vi.fn();
    const { user, m } = await signInWithFactor('overlay', { onAuthenticated });
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveAccessibleName('Two-factor authentication');
    await expectNoAxeViolations(document);
    await user.type(within(dialog).getByLabelText('Authentication code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    const aal2 = fakeSession({ access_token: 'aal2' });
    await act(async () => m.last('verifyMfa').resolve(aal2));
    await act(async () => m.last('registerSignIn').resolve());
    await waitFor(() => expect(onAuthenticated).toHaveBeenCalledWith(aal2));
  });
});
