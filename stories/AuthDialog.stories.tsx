import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import type { Session, User } from '@supabase/auth-js';
import { AuthProvider, createAuthClient, createSessionStore, LimeAuthError } from '../src/auth';
import { PAGE_SCREENS } from '../src/auth/screens';
import { type SignUpResult } from '../src/auth/authDialogMachine';
import { AuthDialog, type AuthScreen, type PageScreen } from '../src/components/AuthDialog';
import { type AuthDialogActors } from '../src/auth/authDialogActors';
import { createGlobalEventsStore } from '../src/notifications/globalEvents';

// Every screen of the auth dialog, in page and overlay mode, and the MFA code step. The dialog runs on a real auth client
// that reaches no server; its network actors are swapped for canned outcomes (the house way to
// swap actors), so each story can show its messages.

type Outcome = 'ok' | 'fail';

const wait = (ms = 400) => new Promise((resolve) => setTimeout(resolve, ms));
const user = {
  id: '00000000-0000-4000-8000-000000000001',
  aud: 'authenticated',
  email: 'ada@example.com',
  app_metadata: {},
  user_metadata: {},
  identities: [{ id: '1', identity_id: '1', user_id: '1', identity_data: {}, provider: 'email' }],
  created_at: '2026-01-01T00:00:00Z',
} as unknown as User;
const session: Session = {
  access_token: 'story-token',
  refresh_token: 'story-refresh',
  token_type: 'bearer',
  expires_in: 3600,
  expires_at: Math.floor(Date.now() / 1000) + 3600,
  user,
};
const apiError = (code: string, message: string) => new LimeAuthError(message, { kind: 'api', code, status: 400 });

function storyActors(outcome: Outcome, signUp: 'created' | 'exists', mfa: boolean): Partial<AuthDialogActors> {
  const fail = outcome === 'fail';
  return {
    signIn: fromPromise(async () => {
      await wait();
      if (fail) throw apiError('invalid_credentials', 'Invalid login credentials');
      return session;
    }),
    signUp: fromPromise(async (): Promise<SignUpResult> => {
      await wait();
      if (fail) throw apiError('weak_password', 'Password should contain a digit.');
      return signUp === 'exists' ? { user: { ...user, identities: [] }, session: null } : { user, session: null };
    }),
    resendVerification: fromPromise(async () => {
      await wait();
      if (fail) throw apiError('over_email_send_rate_limit', 'Too many requests');
    }),
    requestRecovery: fromPromise(async () => {
      await wait();
      if (fail) throw apiError('over_email_send_rate_limit', 'Email rate limit exceeded');
    }),
    getRecoverySession: fromPromise(async () => {
      await wait(200);
      return fail ? null : session;
    }),
    updatePassword: fromPromise(async () => {
      await wait();
      if (fail) throw apiError('same_password', 'New password should be different from the old password.');
    }),
    signOut: fromPromise(async () => {}),
    socialSignIn: fromPromise(async () => {
      await wait();
      throw apiError('provider_disabled', 'Provider is not enabled');
    }),
    // With `mfa`, the user has a verified TOTP factor; 123456 is the right code.
    checkAssurance: fromPromise(async () => ({ factorId: mfa ? 'story-factor' : null })),
    verifyMfa: fromPromise(async ({ input }: { input: { code: string } }) => {
      await wait();
      if (input.code !== '123456') throw apiError('mfa_verification_failed', 'Invalid TOTP code entered');
      return session;
    }),
    registerSignIn: fromPromise(async () => {}),
  } as Partial<AuthDialogActors>;
}

let storeCounter = 0;

interface DemoProps {
  mode: 'page' | 'overlay';
  screen: PageScreen;
  outcome: Outcome;
  signUp: 'created' | 'exists';
  /** The user signing in has a second factor (try the code 123456). */
  mfa: boolean;
}

function Demo({ mode, screen, outcome, signUp, mfa }: DemoProps) {
  const store = useMemo(() => {
    const data: Record<string, string> = {};
    const client = createAuthClient({
      authUrl: 'http://127.0.0.1:9',
      authKey: 'storybook',
      storageKey: `sb-storybook-${++storeCounter}-auth-token`,
      storage: { getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v), removeItem: (k) => void delete data[k] },
      detectSessionInUrl: false,
    });
    return createSessionStore(client, { globalEvents: createGlobalEventsStore(), visibility: null });
  }, []);
  const actors = useMemo(() => storyActors(outcome, signUp, mfa), [outcome, signUp, mfa]);
  const [value, setValue] = useState<PageScreen>(screen);
  // The MFA step has no page_state: a host keeps its last page screen while it shows.
  const onValueChange = (next: AuthScreen) => next !== 'mfaChallenge' && setValue(next);
  const [open, setOpen] = useState(true);
  return (
    <AuthProvider store={store}>
      {mode === 'overlay' ? (
        <main>
          <p>The host page behind the overlay.</p>
          <button type="button" onClick={() => setOpen(true)}>
            Log in
          </button>
          <AuthDialog
            mode="overlay"
            open={open}
            onOpenChange={setOpen}
            value={value}
            onValueChange={onValueChange}
            onAuthenticated={(s) => console.info('[authenticated]', s.user.email)}
            actors={actors}
          />
        </main>
      ) : (
        <main>
          <AuthDialog mode="page" value={value} onValueChange={onValueChange} actors={actors} />
        </main>
      )}
    </AuthProvider>
  );
}

const meta = {
  title: 'Auth/AuthDialog',
  component: Demo,
  parameters: { layout: 'fullscreen' },
  args: { mode: 'page', screen: 'signIn', outcome: 'ok', signUp: 'created', mfa: false },
  argTypes: {
    mode: { control: 'inline-radio', options: ['page', 'overlay'] },
    screen: { control: 'select', options: PAGE_SCREENS },
    mfa: { control: 'boolean' },
    outcome: { control: 'inline-radio', options: ['ok', 'fail'] },
    signUp: { control: 'inline-radio', options: ['created', 'exists'] },
  },
} satisfies Meta<typeof Demo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const SignUp: Story = { args: { screen: 'signUp' } };
export const SignUpUserExists: Story = { args: { screen: 'signUp', signUp: 'exists' } };
export const SignIn: Story = { args: { screen: 'signIn' } };
/** Sign in with any valid e-mail and password, then the code step: 123456 is accepted. */
export const SignInWithSecondFactor: Story = { args: { screen: 'signIn', mfa: true } };
export const SignInInvalidCredentials: Story = { args: { screen: 'signIn', outcome: 'fail' } };
export const AccountCreated: Story = { args: { screen: 'accountCreated' } };
export const PasswordRecovery: Story = { args: { screen: 'recover' } };
export const RecoveryEmailSent: Story = { args: { screen: 'recoverySent' } };
export const SetNewPassword: Story = { args: { screen: 'setPassword' } };
export const RecoveryLinkInvalid: Story = { args: { screen: 'setPassword', outcome: 'fail' } };
export const PasswordResetSuccess: Story = { args: { screen: 'passwordReset' } };
export const Overlay: Story = { args: { mode: 'overlay', screen: 'signIn' } };
export const OverlaySignUp: Story = { args: { mode: 'overlay', screen: 'signUp' } };
