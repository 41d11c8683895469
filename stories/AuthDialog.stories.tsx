import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import type { Session, User } from '@supabase/auth-js';
import { AuthProvider, createAuthClient, createSessionStore, LimeAuthError, type SignUpResult } from '../src/auth';
import { AuthDialog, type AuthDialogActors, type PageState } from '../src/components/AuthDialog';
import { createGlobalEventsStore } from '../src/notifications';

// Every page_state of spec §4, in page and overlay mode. The dialog runs on a real auth client
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

function storyActors(outcome: Outcome, signUp: 'created' | 'exists'): Partial<AuthDialogActors> {
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
    registerSignIn: fromPromise(async () => {}),
  } as Partial<AuthDialogActors>;
}

let storeCounter = 0;

interface DemoProps {
  mode: 'page' | 'overlay';
  pageState: PageState;
  outcome: Outcome;
  signUp: 'created' | 'exists';
}

function Demo({ mode, pageState, outcome, signUp }: DemoProps) {
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
  const actors = useMemo(() => storyActors(outcome, signUp), [outcome, signUp]);
  const [value, setValue] = useState<PageState>(pageState);
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
            onValueChange={setValue}
            onAuthenticated={(s) => console.info('[authenticated]', s.user.email)}
            actors={actors}
          />
        </main>
      ) : (
        <main>
          <AuthDialog mode="page" value={value} onValueChange={setValue} actors={actors} />
        </main>
      )}
    </AuthProvider>
  );
}

const meta = {
  title: 'Auth/AuthDialog',
  component: Demo,
  parameters: { layout: 'fullscreen' },
  args: { mode: 'page', pageState: 1, outcome: 'ok', signUp: 'created' },
  argTypes: {
    mode: { control: 'inline-radio', options: ['page', 'overlay'] },
    pageState: { control: 'select', options: [0, 1, 2, 3, 4, 5, 6] },
    outcome: { control: 'inline-radio', options: ['ok', 'fail'] },
    signUp: { control: 'inline-radio', options: ['created', 'exists'] },
  },
} satisfies Meta<typeof Demo>;
export default meta;
type Story = StoryObj<typeof meta>;

export const SignUp: Story = { args: { pageState: 0 } };
export const SignUpUserExists: Story = { args: { pageState: 0, signUp: 'exists' } };
export const SignIn: Story = { args: { pageState: 1 } };
export const SignInInvalidCredentials: Story = { args: { pageState: 1, outcome: 'fail' } };
export const AccountCreated: Story = { args: { pageState: 2 } };
export const PasswordRecovery: Story = { args: { pageState: 3 } };
export const RecoveryEmailSent: Story = { args: { pageState: 4 } };
export const SetNewPassword: Story = { args: { pageState: 5 } };
export const RecoveryLinkInvalid: Story = { args: { pageState: 5, outcome: 'fail' } };
export const PasswordResetSuccess: Story = { args: { pageState: 6 } };
export const Overlay: Story = { args: { mode: 'overlay', pageState: 1 } };
export const OverlaySignUp: Story = { args: { mode: 'overlay', pageState: 0 } };
