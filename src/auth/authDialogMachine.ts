import { assign, emit, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Session, User } from '@supabase/auth-js';
import {
  confirmLinkInvalidAlert,
  emailConfirmedAlert,
  invalidLinkAlert,
  recoveryFailureAlert,
  resendFailedAlert,
  resendSentAlert,
  resetFailureAlert,
  resetSuccessAlert,
  sessionErrorAlert,
  signInFailureAlert,
  signUpFailureAlert,
  socialFailureAlert,
  userExistsAlert,
  type AuthAlert,
} from './alerts';
import { LimeAuthError, toLimeAuthError } from './errors';
import type { SocialProvider } from './socialProviders';
import { DEFAULT_AUTH_ROUTES, type AuthDialogMode, type AuthRoutes, type PageState } from './types';
import { isValid, validateForm, type AuthForm, type FieldErrors, type FieldName } from './validation';

export interface AuthDialogInput {
  /** @default 'page' */
  mode?: AuthDialogMode;
  /** page_state to open at. @default 1 */
  pageState?: PageState;
  /** Spec §4: returning from a recovery link (query passwordreset=true). */
  passwordReset?: boolean;
  /** Spec §4: returning from the sign-up confirmation link (query emailconfirmed=true). */
  emailConfirmed?: boolean;
  /** The link the visitor returned from could not be used (expired, already used). */
  linkError?: boolean;
  /** Login status known at start (null: not yet known). */
  loggedIn?: boolean | null;
  /** Prefills the e-mail field. */
  email?: string;
  /** Where page mode sends the user after authentication. */
  routes?: Partial<AuthRoutes>;
}

export interface AuthDialogContext {
  mode: AuthDialogMode;
  routes: AuthRoutes;
  pageState: PageState;
  passwordReset: boolean;
  emailConfirmed: boolean;
  linkError: boolean;
  /** Last login status reported with SESSION. */
  loggedIn: boolean | null;
  email: string;
  password: string;
  newPassword: string;
  fieldErrors: FieldErrors;
  /** The current form was submitted invalid: errors now follow every change. */
  showErrors: boolean;
  alert: AuthAlert | null;
  /** Session of a sign-in made here, handed to `authenticated`. */
  session: Session | null;
  /** Path page mode goes to once signed in. */
  destination: string;
  /** Provider of the social sign-in under way. */
  provider: SocialProvider | null;
  /** Address the last confirmation or recovery e-mail went to (prompts of states 2 and 4). */
  sentTo: string | null;
}

export type AuthDialogEvent =
  | { type: 'CHANGE'; field: FieldName; value: string }
  | { type: 'SUBMIT' }
  | { type: 'SHOW_SIGN_UP' }
  | { type: 'SHOW_SIGN_IN' }
  | { type: 'FORGOT_PASSWORD' }
  | { type: 'BACK_TO_LOGIN' }
  | { type: 'RESEND' }
  | { type: 'SOCIAL'; provider: SocialProvider }
  | { type: 'SET_PAGE_STATE'; pageState: PageState }
  | { type: 'SESSION'; loggedIn: boolean | null }
  | { type: 'DISMISS_ALERT' };

export type AuthDialogEmitted = { type: 'authenticated'; session: Session } | { type: 'close' } | { type: 'navigate'; to: string };

export interface SignUpResult {
  user: User | null;
  session: Session | null;
}

function notProvided(name: string) {
  return async (): Promise<never> => {
    throw new LimeAuthError(`authDialogMachine: the "${name}" actor was not provided (use machine.provide or createAuthDialogActors).`);
  };
}

/** Which form a page state shows; states 2, 4 and 6 have none. */
export function formOf(pageState: PageState): AuthForm | null {
  if (pageState === 0 || pageState === 1) return 'credentials';
  if (pageState === 3) return 'recovery';
  if (pageState === 5) return 'newPassword';
  return null;
}

// Sub-states that several screens share (sign-up, sign-in, account created): resending the
// verification e-mail and a social sign-in, each returning to the screen's idle state.
const resendingState = {
  invoke: {
    id: 'resendVerification',
    src: 'resendVerification',
    input: ({ context }: { context: AuthDialogContext }) => ({ email: resendAddress(context) }),
    onDone: { target: 'idle', actions: 'showResendSent' },
    onError: { target: 'idle', actions: 'showResendFailed' },
  },
} as const;

const socialState = {
  invoke: {
    id: 'socialSignIn',
    src: 'socialSignIn',
    input: ({ context }: { context: AuthDialogContext }) => ({ provider: context.provider ?? 'google' }),
    onDone: { target: 'idle', actions: 'endSocial' },
    onError: { target: 'idle', actions: 'showSocialFailure' },
  },
} as const;

function errorsOf(context: AuthDialogContext): FieldErrors {
  const form = formOf(context.pageState);
  return form ? validateForm(form, context) : {};
}

const cleanScreen = {
  alert: null,
  fieldErrors: {},
  showErrors: false,
  password: '',
  newPassword: '',
} as const;

/**
 * The sign-in page / overlay (spec §4 "Sign-in page states"): seven page_states, every
 * transition of the spec, the §5 validation and the §8 messages (as keys, see `AuthAlert`).
 *
 * Network calls are actors with input; `createAuthDialogActors(client)` supplies the real ones,
 * tests swap them with `.provide()`. Page mode asks its host to navigate through the emitted
 * `navigate` event; overlay mode emits `authenticated` (with the session) and `close` instead.
 */
export const authDialogMachine = setup({
  types: {
    context: {} as AuthDialogContext,
    events: {} as AuthDialogEvent,
    input: {} as AuthDialogInput,
    emitted: {} as AuthDialogEmitted,
  },
  actors: {
    signIn: fromPromise<Session, { email: string; password: string }>(notProvided('signIn')),
    signUp: fromPromise<SignUpResult, { email: string; password: string }>(notProvided('signUp')),
    resendVerification: fromPromise<void, { email: string }>(notProvided('resendVerification')),
    requestRecovery: fromPromise<void, { email: string }>(notProvided('requestRecovery')),
    getRecoverySession: fromPromise<Session | null, void>(notProvided('getRecoverySession')),
    updatePassword: fromPromise<void, { password: string }>(notProvided('updatePassword')),
    signOut: fromPromise<void, void>(notProvided('signOut')),
    socialSignIn: fromPromise<string | null, { provider: SocialProvider }>(notProvided('socialSignIn')),
    registerSignIn: fromPromise<void, { accessToken: string | null }>(notProvided('registerSignIn')),
  },
  actions: {
    enterScreen: assign((_, params: { pageState: PageState }) => ({ pageState: params.pageState })),
    resetScreen: assign(cleanScreen),
    change: assign(({ context, event }) => {
      if (event.type !== 'CHANGE') return {};
      const next = { ...context, [event.field]: event.value };
      return { [event.field]: event.value, fieldErrors: context.showErrors ? errorsOf(next) : context.fieldErrors };
    }),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: errorsOf(context), showErrors: true })),
    startSubmit: assign({ alert: null, fieldErrors: {}, showErrors: false }),
    dismissAlert: assign({ alert: null }),
    rememberLoggedIn: assign(({ event }) => (event.type === 'SESSION' ? { loggedIn: event.loggedIn } : {})),
    rememberSentTo: assign(({ context }) => ({ sentTo: context.email.trim() })),
    startSocial: assign(({ event }) => (event.type === 'SOCIAL' ? { provider: event.provider, alert: null } : {})),
    showSocialFailure: assign(({ context }) => ({ alert: socialFailureAlert(context.provider ?? 'google'), provider: null })),
    endSocial: assign({ provider: null }),
    showSignInFailure: assign(({ context, event }) => ({
      alert: signInFailureAlert(toLimeAuthError((event as { error?: unknown }).error), context.email),
      password: '',
    })),
    showSignUpFailure: assign(({ context, event }) => ({
      alert: signUpFailureAlert(toLimeAuthError((event as { error?: unknown }).error), context.email),
    })),
    showUserExists: assign(({ context }) => ({ alert: userExistsAlert(context.email) })),
    showResendSent: assign(({ context }) => ({ alert: resendSentAlert(resendAddress(context)) })),
    showResendFailed: assign({ alert: resendFailedAlert }),
    showRecoveryFailure: assign(({ event }) => ({
      alert: recoveryFailureAlert(toLimeAuthError((event as { error?: unknown }).error)),
    })),
    showInvalidLink: assign({ ...cleanScreen, alert: invalidLinkAlert }),
    showSessionError: assign({ ...cleanScreen, alert: sessionErrorAlert }),
    showResetFailure: assign(({ event }) => ({
      alert: resetFailureAlert(toLimeAuthError((event as { error?: unknown }).error)),
    })),
    showEmailConfirmed: assign({ alert: emailConfirmedAlert }),
    showConfirmLinkInvalid: assign({ alert: confirmLinkInvalidAlert }),
    // Spec §4: a new password set: back to 1 with a success alert, password cleared, signed out.
    finishReset: assign({ ...cleanScreen, alert: resetSuccessAlert, loggedIn: false }),
    keepSession: assign(({ event }) => ({ session: (event as { output?: Session }).output ?? null })),
    keepSignUpSession: assign(({ event }) => ({ session: (event as { output?: SignUpResult }).output?.session ?? null })),
    goToAccount: assign(({ context }) => ({ destination: context.routes.account })),
    goToDashboard: assign(({ context }) => ({ destination: context.routes.dashboard })),
    goOnAsVisitor: assign(({ context }) => ({
      // Spec §2: the sign-up confirmation link leads to the dashboard, the sign-in page to /account.
      destination: context.emailConfirmed ? context.routes.dashboard : context.routes.account,
    })),
    emitNavigate: emit(({ context }) => ({ type: 'navigate' as const, to: context.destination })),
    emitAuthenticated: emit(({ context }) => ({ type: 'authenticated' as const, session: context.session! })),
    emitClose: emit({ type: 'close' as const }),
  },
  guards: {
    isOverlay: ({ context }) => context.mode === 'overlay',
    startsAt: ({ context }, params: { pageState: PageState }) => context.pageState === params.pageState,
    startsInPasswordReset: ({ context }) => context.passwordReset,
    arrivedWithLinkError: ({ context }) => context.emailConfirmed && context.linkError,
    arrivedConfirmed: ({ context }) => context.emailConfirmed,
    // Spec §4: a logged-in visitor on the non-overlay page is redirected.
    shouldRedirectVisitor: ({ context }) => context.mode === 'page' && context.loggedIn === true,
    formValid: ({ context }) => isValid(errorsOf(context)),
    alertOffersResend: ({ context }) => context.alert?.action === 'resend',
    hasSentTo: ({ context }) => !!context.sentTo,
    signUpHasSession: ({ event }) => !!(event as { output?: SignUpResult }).output?.session,
    // GoTrue answers a sign-up for a confirmed address with an obfuscated user without identities.
    signUpUserExists: ({ event }) => (event as { output?: SignUpResult }).output?.user?.identities?.length === 0,
    signUpAlreadyConfirmed: ({ event }) => !!(event as { output?: SignUpResult }).output?.user?.email_confirmed_at,
    hasRecoverySession: ({ event }) => !!(event as { output?: Session | null }).output,
    isSessionMissing: ({ event }) => toLimeAuthError((event as { error?: unknown }).error).kind === 'session-missing',
    isCurrentPageState: ({ context, event }) => event.type === 'SET_PAGE_STATE' && event.pageState === context.pageState,
    targetIs: ({ event }, params: { pageState: PageState }) => event.type === 'SET_PAGE_STATE' && event.pageState === params.pageState,
  },
}).createMachine({
  id: 'authDialog',
  context: ({ input }) => ({
    // Spec §4: overlay mode forces state 1 at start.
    mode: input.mode ?? 'page',
    routes: { ...DEFAULT_AUTH_ROUTES, ...input.routes },
    pageState: input.mode === 'overlay' ? 1 : (input.pageState ?? 1),
    passwordReset: input.mode !== 'overlay' && !!input.passwordReset,
    emailConfirmed: input.mode !== 'overlay' && !!input.emailConfirmed,
    linkError: !!input.linkError,
    loggedIn: input.loggedIn ?? null,
    email: input.email ?? '',
    password: '',
    newPassword: '',
    fieldErrors: {},
    showErrors: false,
    alert: null,
    session: null,
    destination: DEFAULT_AUTH_ROUTES.account,
    provider: null,
    sentTo: null,
  }),
  initial: 'routing',
  states: {
    routing: {
      always: [
        { guard: 'isOverlay', target: 'screens.signIn' },
        { guard: 'startsInPasswordReset', target: 'screens.newPassword' },
        { guard: 'arrivedWithLinkError', target: 'screens.signIn', actions: 'showConfirmLinkInvalid' },
        { guard: 'arrivedConfirmed', target: 'screens.signIn', actions: 'showEmailConfirmed' },
        { guard: { type: 'startsAt', params: { pageState: 0 } }, target: 'screens.signUp' },
        { guard: { type: 'startsAt', params: { pageState: 2 } }, target: 'screens.accountCreated' },
        { guard: { type: 'startsAt', params: { pageState: 3 } }, target: 'screens.recovery' },
        { guard: { type: 'startsAt', params: { pageState: 4 } }, target: 'screens.recoverySent' },
        { guard: { type: 'startsAt', params: { pageState: 5 } }, target: 'screens.newPassword' },
        { guard: { type: 'startsAt', params: { pageState: 6 } }, target: 'screens.resetSuccess' },
        { target: 'screens.signIn' },
      ],
    },
    screens: {
      on: {
        CHANGE: { actions: 'change' },
        DISMISS_ALERT: { actions: 'dismissAlert' },
        SESSION: { actions: 'rememberLoggedIn' },
        SET_PAGE_STATE: [
          { guard: 'isCurrentPageState' },
          { guard: { type: 'targetIs', params: { pageState: 0 } }, target: '.signUp', actions: 'resetScreen' },
          { guard: { type: 'targetIs', params: { pageState: 1 } }, target: '.signIn', actions: 'resetScreen' },
          { guard: { type: 'targetIs', params: { pageState: 2 } }, target: '.accountCreated', actions: 'resetScreen' },
          { guard: { type: 'targetIs', params: { pageState: 3 } }, target: '.recovery', actions: 'resetScreen' },
          { guard: { type: 'targetIs', params: { pageState: 4 } }, target: '.recoverySent', actions: 'resetScreen' },
          { guard: { type: 'targetIs', params: { pageState: 5 } }, target: '.newPassword', actions: 'resetScreen' },
          { guard: { type: 'targetIs', params: { pageState: 6 } }, target: '.resetSuccess', actions: 'resetScreen' },
        ],
      },
      initial: 'signIn',
      states: {
        // page_state 0
        signUp: {
          id: 'signUp',
          entry: { type: 'enterScreen', params: { pageState: 0 } },
          initial: 'idle',
          states: {
            idle: {
              always: { guard: 'shouldRedirectVisitor', target: '#registering', actions: 'goOnAsVisitor' },
              on: {
                SUBMIT: [
                  { guard: 'formValid', target: 'submitting', actions: 'startSubmit' },
                  // Spec §5: sign-up does nothing while the form is invalid (but says why).
                  { actions: 'showFieldErrors' },
                ],
                SHOW_SIGN_IN: { target: '#signIn', actions: 'resetScreen' },
                RESEND: { guard: 'alertOffersResend', target: 'resending' },
                SOCIAL: { target: 'social', actions: 'startSocial' },
              },
            },
            submitting: {
              invoke: {
                id: 'signUp',
                src: 'signUp',
                input: ({ context }) => ({ email: context.email.trim(), password: context.password }),
                onDone: [
                  // Confirmation off: signed in at once; spec §2 sends sign-ups to the dashboard.
                  { guard: 'signUpHasSession', target: '#registering', actions: ['keepSignUpSession', 'goToDashboard'] },
                  { guard: 'signUpUserExists', target: 'idle', actions: 'showUserExists' },
                  {
                    guard: 'signUpAlreadyConfirmed',
                    target: '#signIn',
                    actions: ['rememberSentTo', 'resetScreen', 'showEmailConfirmed'],
                  },
                  // Spec §4: sign-up success with the e-mail not yet verified goes to 2.
                  { target: '#accountCreated', actions: ['rememberSentTo', 'resetScreen'] },
                ],
                onError: { target: 'idle', actions: 'showSignUpFailure' },
              },
            },
            resending: resendingState,
            social: socialState,
          },
        },
        // page_state 1
        signIn: {
          id: 'signIn',
          entry: { type: 'enterScreen', params: { pageState: 1 } },
          initial: 'idle',
          states: {
            idle: {
              always: { guard: 'shouldRedirectVisitor', target: '#registering', actions: 'goOnAsVisitor' },
              on: {
                SUBMIT: [
                  { guard: 'formValid', target: 'submitting', actions: 'startSubmit' },
                  // Spec §5: sign-in does nothing while the form is invalid (but says why).
                  { actions: 'showFieldErrors' },
                ],
                SHOW_SIGN_UP: { target: '#signUp', actions: 'resetScreen' },
                // Spec §4: forgot-password link, 1 to 3.
                FORGOT_PASSWORD: { target: '#recovery', actions: 'resetScreen' },
                RESEND: { guard: 'alertOffersResend', target: 'resending' },
                SOCIAL: { target: 'social', actions: 'startSocial' },
              },
            },
            submitting: {
              invoke: {
                id: 'signIn',
                src: 'signIn',
                input: ({ context }) => ({ email: context.email.trim(), password: context.password }),
                // Spec §4: sign-in success goes to /account, or in overlay mode emits authenticated.
                onDone: { target: '#registering', actions: ['keepSession', 'goToAccount'] },
                onError: { target: 'idle', actions: 'showSignInFailure' },
              },
            },
            resending: resendingState,
            social: socialState,
          },
        },
        // page_state 2
        accountCreated: {
          id: 'accountCreated',
          entry: { type: 'enterScreen', params: { pageState: 2 } },
          initial: 'idle',
          states: {
            idle: {
              always: { guard: 'shouldRedirectVisitor', target: '#registering', actions: 'goOnAsVisitor' },
              on: {
                BACK_TO_LOGIN: { target: '#signIn', actions: 'resetScreen' },
                RESEND: { guard: 'hasSentTo', target: 'resending' },
              },
            },
            resending: {
              invoke: {
                id: 'resendVerification',
                src: 'resendVerification',
                input: ({ context }) => ({ email: context.sentTo ?? '' }),
                onDone: { target: 'idle', actions: 'showResendSent' },
                onError: { target: 'idle', actions: 'showResendFailed' },
              },
            },
          },
        },
        // page_state 3
        recovery: {
          id: 'recovery',
          entry: { type: 'enterScreen', params: { pageState: 3 } },
          initial: 'idle',
          states: {
            idle: {
              always: { guard: 'shouldRedirectVisitor', target: '#registering', actions: 'goOnAsVisitor' },
              on: {
                SUBMIT: [{ guard: 'formValid', target: 'submitting', actions: 'startSubmit' }, { actions: 'showFieldErrors' }],
                // Spec §4: back to login, 3 to 1.
                BACK_TO_LOGIN: { target: '#signIn', actions: 'resetScreen' },
              },
            },
            submitting: {
              invoke: {
                id: 'requestRecovery',
                src: 'requestRecovery',
                input: ({ context }) => ({ email: context.email.trim() }),
                // Spec §4: recovery email sent, 3 to 4.
                onDone: { target: '#recoverySent', actions: ['rememberSentTo', 'resetScreen'] },
                onError: { target: 'idle', actions: 'showRecoveryFailure' },
              },
            },
          },
        },
        // page_state 4
        recoverySent: {
          id: 'recoverySent',
          entry: { type: 'enterScreen', params: { pageState: 4 } },
          always: { guard: 'shouldRedirectVisitor', target: '#registering', actions: 'goOnAsVisitor' },
          on: {
            BACK_TO_LOGIN: { target: '#signIn', actions: 'resetScreen' },
          },
        },
        // page_state 5
        newPassword: {
          id: 'newPassword',
          entry: { type: 'enterScreen', params: { pageState: 5 } },
          initial: 'verifying',
          states: {
            // Spec §4: a recovery link with a valid session goes to 5; with none, an error and 3.
            verifying: {
              invoke: {
                id: 'getRecoverySession',
                src: 'getRecoverySession',
                onDone: [
                  { guard: 'hasRecoverySession', target: 'ready' },
                  { target: '#recovery', actions: 'showInvalidLink' },
                ],
                onError: { target: '#recovery', actions: 'showSessionError' },
              },
            },
            ready: {
              on: {
                SUBMIT: [{ guard: 'formValid', target: 'updating', actions: 'startSubmit' }, { actions: 'showFieldErrors' }],
              },
            },
            updating: {
              invoke: {
                id: 'updatePassword',
                src: 'updatePassword',
                input: ({ context }) => ({ password: context.newPassword }),
                onDone: { target: 'signingOut' },
                onError: [
                  { guard: 'isSessionMissing', target: '#recovery', actions: 'showSessionError' },
                  { target: 'ready', actions: 'showResetFailure' },
                ],
              },
            },
            signingOut: {
              invoke: {
                id: 'signOut',
                src: 'signOut',
                onDone: { target: '#signIn', actions: 'finishReset' },
                // The password is set either way; a failed sign-out must not hide that.
                onError: { target: '#signIn', actions: 'finishReset' },
              },
            },
          },
        },
        // page_state 6
        resetSuccess: {
          id: 'resetSuccess',
          entry: { type: 'enterScreen', params: { pageState: 6 } },
          always: { guard: 'shouldRedirectVisitor', target: '#registering', actions: 'goOnAsVisitor' },
          on: {
            BACK_TO_LOGIN: { target: '#signIn', actions: 'resetScreen' },
          },
        },
      },
    },
    // Signed in: tell the platform (profile sign_in_sign_up), then leave.
    registering: {
      id: 'registering',
      invoke: {
        id: 'registerSignIn',
        src: 'registerSignIn',
        input: ({ context }) => ({ accessToken: context.session?.access_token ?? null }),
        onDone: { target: 'finishing' },
        // The user is signed in either way; the actor reports its own failure (spec §8 452/453).
        onError: { target: 'finishing' },
      },
    },
    finishing: {
      always: [
        { guard: 'isOverlay', target: 'closed', actions: ['emitAuthenticated', 'emitClose'] },
        { target: 'left', actions: 'emitNavigate' },
      ],
    },
    /** Overlay: authenticated and closed. */
    closed: { type: 'final' },
    /** Page: navigated away. */
    left: { type: 'final' },
  },
});

function resendAddress(context: AuthDialogContext): string {
  return (context.alert?.values?.email ?? context.sentTo ?? context.email).trim();
}

export type AuthDialogMachine = typeof authDialogMachine;
export type AuthDialogActorRef = ActorRefFrom<AuthDialogMachine>;
export type AuthDialogSnapshot = SnapshotFrom<AuthDialogMachine>;
