import { assign, emit, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Session, User } from '@supabase/auth-js';
import {
  confirmLinkInvalidAlert,
  emailCodeFailureAlert,
  emailConfirmedAlert,
  invalidLinkAlert,
  mfaFailureAlert,
  recoveryFailureAlert,
  resendFailedAlert,
  resendSentAlert,
  resetFailureAlert,
  resetSuccessAlert,
  sessionErrorAlert,
  signInFailureAlert,
  signUpFailureAlert,
  socialFailureAlert,
  unexpectedAlert,
  userExistsAlert,
  type AuthAlert,
} from './alerts';
import { LimeAuthError, toLimeAuthError } from './errors';
import { formOf, PAGE_SCREENS, type AuthScreen, type PageScreen } from './screens';
import type { SocialProvider } from './socialProviders';
import { DEFAULT_AUTH_ROUTES, isSamePlace, type AuthDialogMode, type AuthRoutes } from './types';
import { isValid, validateForm, type FieldErrors, type FieldName } from './validation';

export interface AuthDialogInput {
  /** @default 'page' */
  mode?: AuthDialogMode;
  /** Screen to open at (the overlay always opens at sign-in). @default 'signIn' */
  screen?: PageScreen;
  /** Returning from a recovery link (query passwordreset=true): opens `setPassword`. */
  passwordReset?: boolean;
  /** Returning from the sign-up confirmation link (query emailconfirmed=true). */
  emailConfirmed?: boolean;
  /** The link the visitor returned from could not be used (expired, already used). */
  linkError?: boolean;
  /**
   * A social sign-in came back with an error (in the URL, see oauthReturn.ts): the sign-in form
   * opens with the failure naming the provider, when it is known.
   */
  oauthError?: { provider: SocialProvider };
  /** Login status known at start (null: not yet known). */
  loggedIn?: boolean | null;
  /** Prefills the e-mail field. */
  email?: string;
  /** Where page mode sends the user after authentication. */
  routes?: Partial<AuthRoutes>;
  /**
   * The page's own address (`window.location.href`): page mode never navigates there, it stays
   * and shows the user signed in (`stayed`). Unknown (no window): every route is navigated to.
   */
  location?: string;
}

export interface AuthDialogContext {
  mode: AuthDialogMode;
  routes: AuthRoutes;
  /** The screen shown (the state under `screens`), kept for guards and views. */
  screen: AuthScreen;
  passwordReset: boolean;
  emailConfirmed: boolean;
  linkError: boolean;
  /** Last login status reported with SESSION. */
  loggedIn: boolean | null;
  email: string;
  password: string;
  newPassword: string;
  /** The code typed in the MFA step. */
  mfaCode: string;
  /** The 6-digit code of the confirmation e-mail, typed on `accountCreated`. */
  emailCode: string;
  /** The verified TOTP factor the MFA step challenges. */
  mfaFactorId: string | null;
  fieldErrors: FieldErrors;
  /** The current form was submitted invalid: errors now follow every change. */
  showErrors: boolean;
  alert: AuthAlert | null;
  /** Session of a sign-in made here, handed to `authenticated`. */
  session: Session | null;
  /** Path page mode goes to once signed in. */
  destination: string;
  /** The page's address (input `location`), or null when unknown. */
  location: string | null;
  /** Provider of the social sign-in under way. */
  provider: SocialProvider | null;
  /** The error a social sign-in came back with, until shown. */
  oauthError: { provider: SocialProvider } | null;
  /** Address the last confirmation or recovery e-mail went to (prompts of accountCreated and recoverySent). */
  sentTo: string | null;
}

/** The events the auth dialog machine accepts (field changes, submit, screen switches, cancel). */
export type AuthDialogEvent =
  | { type: 'CHANGE'; field: FieldName; value: string }
  | { type: 'SUBMIT' }
  | { type: 'SHOW_SIGN_UP' }
  | { type: 'SHOW_SIGN_IN' }
  | { type: 'FORGOT_PASSWORD' }
  | { type: 'BACK_TO_LOGIN' }
  | { type: 'RESEND' }
  | { type: 'SOCIAL'; provider: SocialProvider }
  /** Leave the MFA step: signs the half-signed-in user out. */
  | { type: 'CANCEL' }
  | { type: 'SET_SCREEN'; screen: PageScreen }
  | { type: 'SESSION'; loggedIn: boolean | null }
  | { type: 'DISMISS_ALERT' };

export type AuthDialogEmitted = { type: 'authenticated'; session: Session } | { type: 'close' } | { type: 'navigate'; to: string };

export interface SignUpResult {
  user: User | null;
  session: Session | null;
}

/** What the assurance check found after a sign-in. */
export interface AssuranceCheck {
  /** A verified TOTP factor to challenge: the session is aal1 and the user can reach aal2. */
  factorId: string | null;
}

function notProvided(name: string) {
  return async (): Promise<never> => {
    throw new LimeAuthError(`authDialogMachine: the "${name}" actor was not provided (use machine.provide or createAuthDialogActors).`);
  };
}

/** The shared sub-states' config is built outside `createMachine`, so its functions name their argument type. */
type Args = { context: AuthDialogContext };

// A resting screen of a signed-out visitor. Page mode sends a visitor who is (or becomes)
// signed in on; the MFA step and the new-password form are excluded, since both are signed in.
const visitorRedirect = { guard: 'shouldRedirectVisitor', target: '#assuring', actions: 'goOnAsVisitor' } as const;

/** A resting screen of a signed-out visitor: ready for input, handles `on`. */
function visitorScreen<const On extends object>(on: On) {
  return { tags: 'ready', always: visitorRedirect, on } as const;
}

/** To the sign-in form, cleared (back from another screen, or across from sign-up). */
const toSignIn = { target: '#signIn', actions: 'resetScreen' } as const;

/** Every form's SUBMIT: valid, on to `target` (the request); else say why, and send nothing. */
function submitTo<const T extends string>(target: T) {
  return [{ guard: 'formValid', target, actions: 'startSubmit' }, { actions: 'showFieldErrors' }] as const;
}

/**
 * The resting state of both credential forms (sign-up, sign-in): submit, resend the
 * verification e-mail an alert offers, social sign-in; `on` adds the form's own links.
 */
function credentialsIdle<const On extends object>(on: On) {
  return visitorScreen({
    SUBMIT: submitTo('submitting'),
    RESEND: { guard: 'alertOffersResend', target: 'resending' },
    SOCIAL: {
      target: 'social',
      actions: { type: 'startSocial', params: ({ event }: { event: { provider: SocialProvider } }) => ({ provider: event.provider }) },
    },
    ...on,
  } as const);
}

/** What both credential forms send: the trimmed address and the password as typed. */
const credentials = ({ context }: Args) => ({ email: context.email.trim(), password: context.password });

// Sub-states that several screens share: resending the verification e-mail and a social
// sign-in, each returning to the screen's idle state.
const resendingState = {
  invoke: {
    id: 'resendVerification',
    src: 'resendVerification',
    input: ({ context }: Args) => ({ email: resendAddress(context) }),
    onDone: { target: 'idle', actions: 'showResendSent' },
    onError: { target: 'idle', actions: 'showResendFailed' },
  },
} as const;

const socialState = {
  invoke: {
    id: 'socialSignIn',
    src: 'socialSignIn',
    input: ({ context }: Args) => ({ provider: context.provider ?? 'google' }),
    onDone: { target: 'idle', actions: 'endSocial' },
    onError: { target: 'idle', actions: 'showSocialFailure' },
  },
} as const;

/** Signs out, then shows sign-in with `actions` applied whether or not the sign-out succeeded. */
function signingOutTo<const A extends ReadonlyArray<'endMfa' | 'showUnexpected' | 'finishReset'>>(actions: A) {
  return {
    invoke: { id: 'signOut', src: 'signOut', onDone: { target: '#signIn', actions }, onError: { target: '#signIn', actions } },
  } as const;
}

function errorsOf(context: AuthDialogContext): FieldErrors {
  const form = formOf(context.screen);
  return form ? validateForm(form, context) : {};
}

const cleanScreen = {
  alert: null,
  fieldErrors: {},
  showErrors: false,
  password: '',
  newPassword: '',
  mfaCode: '',
  emailCode: '',
} as const;

/** Entry action of a screen's state: records its name (the state node's key). */
const enter = (screen: AuthScreen) => ({ type: 'enterScreen', params: { screen } }) as const;

/**
 * The sign-in page / overlay: the screens of `AUTH_SCREENS`, every transition between them, the
 * form validation and the messages (as keys, see `AuthAlert`). After a sign-in the assurance
 * check asks a user with a verified TOTP factor for a code (`mfaChallenge`) before the session
 * counts (aal2).
 *
 * Network calls are actors with input; `createAuthDialogActors(client)` supplies the real ones,
 * tests swap them with `.provide()`. Page mode asks its host to navigate through the emitted
 * `navigate` event, unless the route leads to the page it is on (input `location`): then it stays
 * (`stayed`); overlay mode emits `authenticated` (with the session) and `close` instead.
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
    checkAssurance: fromPromise<AssuranceCheck, void>(notProvided('checkAssurance')),
    verifyMfa: fromPromise<Session, { factorId: string; code: string }>(notProvided('verifyMfa')),
    verifyEmailCode: fromPromise<Session, { email: string; code: string }>(notProvided('verifyEmailCode')),
    registerSignIn: fromPromise<void, { accessToken: string | null }>(notProvided('registerSignIn')),
  },
  actions: {
    enterScreen: assign((_, params: { screen: AuthScreen }) => ({ screen: params.screen })),
    resetScreen: assign(cleanScreen),
    change: assign(({ context }, params: { field: FieldName; value: string }) => {
      const next = { ...context, [params.field]: params.value };
      return { [params.field]: params.value, fieldErrors: context.showErrors ? errorsOf(next) : context.fieldErrors };
    }),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: errorsOf(context), showErrors: true })),
    startSubmit: assign({ alert: null, fieldErrors: {}, showErrors: false }),
    dismissAlert: assign({ alert: null }),
    rememberLoggedIn: assign((_, params: { loggedIn: boolean | null }) => ({ loggedIn: params.loggedIn })),
    rememberSentTo: assign(({ context }) => ({ sentTo: context.email.trim() })),
    startSocial: assign((_, params: { provider: SocialProvider }) => ({ provider: params.provider, alert: null })),
    showSocialFailure: assign(({ context }) => ({ alert: socialFailureAlert(context.provider ?? 'google'), provider: null })),
    showReturnedSocialFailure: assign(({ context }) => ({
      alert: socialFailureAlert(context.oauthError!.provider),
      oauthError: null,
    })),
    endSocial: assign({ provider: null }),
    showSignInFailure: assign(({ context }, params: { error: unknown }) => ({
      alert: signInFailureAlert(toLimeAuthError(params.error), context.email),
      password: '',
    })),
    showSignUpFailure: assign(({ context }, params: { error: unknown }) => ({
      alert: signUpFailureAlert(toLimeAuthError(params.error), context.email),
    })),
    showUserExists: assign(({ context }) => ({ alert: userExistsAlert(context.email) })),
    showResendSent: assign(({ context }) => ({ alert: resendSentAlert(resendAddress(context)) })),
    showResendFailed: assign({ alert: resendFailedAlert }),
    showRecoveryFailure: assign((_, params: { error: unknown }) => ({ alert: recoveryFailureAlert(toLimeAuthError(params.error)) })),
    showInvalidLink: assign({ ...cleanScreen, alert: invalidLinkAlert }),
    showSessionError: assign({ ...cleanScreen, alert: sessionErrorAlert }),
    showResetFailure: assign((_, params: { error: unknown }) => ({ alert: resetFailureAlert(toLimeAuthError(params.error)) })),
    showEmailConfirmed: assign({ alert: emailConfirmedAlert }),
    showConfirmLinkInvalid: assign({ alert: confirmLinkInvalidAlert }),
    // A new password set: back to sign-in with a success alert, password cleared, signed out.
    finishReset: assign({ ...cleanScreen, alert: resetSuccessAlert, loggedIn: false }),
    keepSession: assign((_, params: { session: Session | null }) => ({ session: params.session })),
    startMfa: assign((_, params: { factorId: string }) => ({ ...cleanScreen, mfaFactorId: params.factorId })),
    // A wrong code is cleared so the next one is typed afresh.
    showMfaFailure: assign((_, params: { error: unknown }) => ({ alert: mfaFailureAlert(toLimeAuthError(params.error)), mfaCode: '' })),
    // Leaving the MFA step (cancelled, or the check failed): signed out, back at sign-in.
    endMfa: assign({ ...cleanScreen, mfaFactorId: null, session: null, loggedIn: false }),
    showEmailCodeFailure: assign((_, params: { error: unknown }) => ({
      alert: emailCodeFailureAlert(toLimeAuthError(params.error)),
      emailCode: '',
    })),
    showUnexpected: assign({ alert: unexpectedAlert }),
    goToAccount: assign(({ context }) => ({ destination: context.routes.account })),
    goToDashboard: assign(({ context }) => ({ destination: context.routes.dashboard })),
    goOnAsVisitor: assign(({ context }) => ({
      // The sign-up confirmation link leads to the dashboard, the sign-in page to /account.
      destination: context.emailConfirmed ? context.routes.dashboard : context.routes.account,
    })),
    // Signed out while shown signed in (stayed): the sign-in form, as for a new visitor.
    forgetSession: assign({ ...cleanScreen, mfaFactorId: null, session: null, loggedIn: false }),
    emitNavigate: emit(({ context }) => ({ type: 'navigate' as const, to: context.destination })),
    emitAuthenticated: emit(({ context }) => ({ type: 'authenticated' as const, session: context.session! })),
    emitClose: emit({ type: 'close' as const }),
  },
  guards: {
    isOverlay: ({ context }) => context.mode === 'overlay',
    startsAt: ({ context }, params: { screen: PageScreen }) => context.screen === params.screen,
    startsInPasswordReset: ({ context }) => context.passwordReset,
    arrivedWithLinkError: ({ context }) => context.emailConfirmed && context.linkError,
    arrivedConfirmed: ({ context }) => context.emailConfirmed,
    returnedWithOAuthError: ({ context }) => !!context.oauthError,
    // A logged-in visitor on the sign-in page (not the overlay) is sent on.
    shouldRedirectVisitor: ({ context }) => context.mode === 'page' && context.loggedIn === true,
    // The destination is the page itself (a one-route app): navigating there would load this
    // page again, which sees the session and navigates again, for ever (issue: 32 loads in 6 s).
    isAlreadyThere: ({ context }) => isSamePlace(context.destination, context.location),
    isSignedOut: (_, params: { loggedIn: boolean | null }) => params.loggedIn === false,
    formValid: ({ context }) => isValid(errorsOf(context)),
    alertOffersResend: ({ context }) => context.alert?.action === 'resend',
    hasSentTo: ({ context }) => !!context.sentTo,
    hasSession: (_, params: { session: Session | null }) => !!params.session,
    // GoTrue answers a sign-up for a confirmed address with an obfuscated user without identities.
    isObfuscatedUser: (_, params: { user: User | null }) => params.user?.identities?.length === 0,
    isConfirmedUser: (_, params: { user: User | null }) => !!params.user?.email_confirmed_at,
    isSessionMissing: (_, params: { error: unknown }) => toLimeAuthError(params.error).kind === 'session-missing',
    hasFactor: (_, params: { factorId: string | null }) => !!params.factorId,
    isCurrentScreen: ({ context }, params: { screen: PageScreen }) => params.screen === context.screen,
    screenIs: (_, params: { screen: PageScreen; target: PageScreen }) => params.screen === params.target,
  },
}).createMachine({
  id: 'authDialog',
  context: ({ input }) => ({
    // The overlay always opens at sign-in.
    mode: input.mode ?? 'page',
    routes: { ...DEFAULT_AUTH_ROUTES, ...input.routes },
    screen: input.mode === 'overlay' ? 'signIn' : (input.screen ?? 'signIn'),
    passwordReset: input.mode !== 'overlay' && !!input.passwordReset,
    emailConfirmed: input.mode !== 'overlay' && !!input.emailConfirmed,
    linkError: !!input.linkError,
    loggedIn: input.loggedIn ?? null,
    email: input.email ?? '',
    password: '',
    newPassword: '',
    mfaCode: '',
    emailCode: '',
    mfaFactorId: null,
    fieldErrors: {},
    showErrors: false,
    alert: null,
    oauthError: input.oauthError ?? null,
    session: null,
    destination: DEFAULT_AUTH_ROUTES.account,
    location: input.location ?? null,
    provider: null,
    sentTo: null,
  }),
  initial: 'routing',
  states: {
    routing: {
      always: [
        { guard: 'returnedWithOAuthError', target: 'screens.signIn', actions: 'showReturnedSocialFailure' },
        { guard: 'isOverlay', target: 'screens.signIn' },
        { guard: 'startsInPasswordReset', target: 'screens.setPassword' },
        { guard: 'arrivedWithLinkError', target: 'screens.signIn', actions: 'showConfirmLinkInvalid' },
        { guard: 'arrivedConfirmed', target: 'screens.signIn', actions: 'showEmailConfirmed' },
        ...PAGE_SCREENS.map((screen) => ({ guard: { type: 'startsAt' as const, params: { screen } }, target: `screens.${screen}` })),
      ],
    },
    screens: {
      on: {
        CHANGE: { actions: { type: 'change', params: ({ event }) => ({ field: event.field, value: event.value }) } },
        DISMISS_ALERT: { actions: 'dismissAlert' },
        SESSION: { actions: { type: 'rememberLoggedIn', params: ({ event }) => ({ loggedIn: event.loggedIn }) } },
        SET_SCREEN: [
          { guard: { type: 'isCurrentScreen', params: ({ event }) => ({ screen: event.screen }) } },
          ...PAGE_SCREENS.map((target) => ({
            guard: {
              type: 'screenIs' as const,
              params: ({ event }: { event: { screen: PageScreen } }) => ({ screen: event.screen, target }),
            },
            target: `.${target}`,
            actions: 'resetScreen' as const,
          })),
        ],
      },
      initial: 'signIn',
      states: {
        signUp: {
          id: 'signUp',
          entry: enter('signUp'),
          initial: 'idle',
          states: {
            idle: credentialsIdle({ SHOW_SIGN_IN: toSignIn }),
            submitting: {
              invoke: {
                id: 'signUp',
                src: 'signUp',
                input: credentials,
                onDone: [
                  // Confirmation off: signed in at once; sign-ups go to the dashboard.
                  {
                    guard: { type: 'hasSession', params: ({ event }) => ({ session: event.output.session }) },
                    target: '#assuring',
                    actions: [{ type: 'keepSession', params: ({ event }) => ({ session: event.output.session }) }, 'goToDashboard'],
                  },
                  {
                    guard: { type: 'isObfuscatedUser', params: ({ event }) => ({ user: event.output.user }) },
                    target: 'idle',
                    actions: 'showUserExists',
                  },
                  {
                    guard: { type: 'isConfirmedUser', params: ({ event }) => ({ user: event.output.user }) },
                    target: '#signIn',
                    actions: ['rememberSentTo', 'resetScreen', 'showEmailConfirmed'],
                  },
                  // Sign-up success with the e-mail not yet verified: account created.
                  { target: '#accountCreated', actions: ['rememberSentTo', 'resetScreen'] },
                ],
                onError: { target: 'idle', actions: { type: 'showSignUpFailure', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            resending: resendingState,
            social: socialState,
          },
        },
        signIn: {
          id: 'signIn',
          entry: enter('signIn'),
          initial: 'idle',
          states: {
            idle: credentialsIdle({
              SHOW_SIGN_UP: { target: '#signUp', actions: 'resetScreen' },
              FORGOT_PASSWORD: { target: '#recover', actions: 'resetScreen' },
            }),
            submitting: {
              invoke: {
                id: 'signIn',
                src: 'signIn',
                input: credentials,
                // Sign-in success goes to /account, or in overlay mode emits authenticated.
                onDone: {
                  target: '#assuring',
                  actions: [{ type: 'keepSession', params: ({ event }) => ({ session: event.output }) }, 'goToAccount'],
                },
                onError: { target: 'idle', actions: { type: 'showSignInFailure', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            resending: resendingState,
            social: socialState,
          },
        },
        accountCreated: {
          id: 'accountCreated',
          entry: enter('accountCreated'),
          initial: 'idle',
          states: {
            idle: visitorScreen({
              BACK_TO_LOGIN: toSignIn,
              RESEND: { guard: 'hasSentTo', target: 'resending' },
              // The code needs the address it was sent to (known after a sign-up here).
              SUBMIT: submitTo('confirming'),
            }),
            resending: resendingState,
            // The code confirms the address and signs in, as the link would (sign-ups go to the dashboard).
            confirming: {
              invoke: {
                id: 'verifyEmailCode',
                src: 'verifyEmailCode',
                input: ({ context }) => ({ email: context.sentTo ?? '', code: context.emailCode.replace(/\s+/g, '') }),
                onDone: {
                  target: '#assuring',
                  actions: [{ type: 'keepSession', params: ({ event }) => ({ session: event.output }) }, 'goToDashboard'],
                },
                onError: { target: 'idle', actions: { type: 'showEmailCodeFailure', params: ({ event }) => ({ error: event.error }) } },
              },
            },
          },
        },
        recover: {
          id: 'recover',
          entry: enter('recover'),
          initial: 'idle',
          states: {
            idle: visitorScreen({ SUBMIT: submitTo('submitting'), BACK_TO_LOGIN: toSignIn }),
            submitting: {
              invoke: {
                id: 'requestRecovery',
                src: 'requestRecovery',
                input: ({ context }) => ({ email: context.email.trim() }),
                onDone: { target: '#recoverySent', actions: ['rememberSentTo', 'resetScreen'] },
                onError: { target: 'idle', actions: { type: 'showRecoveryFailure', params: ({ event }) => ({ error: event.error }) } },
              },
            },
          },
        },
        recoverySent: {
          id: 'recoverySent',
          entry: enter('recoverySent'),
          ...visitorScreen({ BACK_TO_LOGIN: toSignIn }),
        },
        setPassword: {
          id: 'setPassword',
          entry: enter('setPassword'),
          initial: 'verifying',
          states: {
            // A recovery link with a valid session opens the form; with none, an error and recover.
            verifying: {
              invoke: {
                id: 'getRecoverySession',
                src: 'getRecoverySession',
                onDone: [
                  { guard: { type: 'hasSession', params: ({ event }) => ({ session: event.output }) }, target: 'ready' },
                  { target: '#recover', actions: 'showInvalidLink' },
                ],
                onError: { target: '#recover', actions: 'showSessionError' },
              },
            },
            ready: {
              tags: 'ready',
              on: {
                SUBMIT: submitTo('updating'),
              },
            },
            updating: {
              invoke: {
                id: 'updatePassword',
                src: 'updatePassword',
                input: ({ context }) => ({ password: context.newPassword }),
                onDone: { target: 'signingOut' },
                onError: [
                  {
                    guard: { type: 'isSessionMissing', params: ({ event }) => ({ error: event.error }) },
                    target: '#recover',
                    actions: 'showSessionError',
                  },
                  { target: 'ready', actions: { type: 'showResetFailure', params: ({ event }) => ({ error: event.error }) } },
                ],
              },
            },
            // The password is set either way; a failed sign-out must not hide that.
            signingOut: signingOutTo(['finishReset']),
          },
        },
        passwordReset: {
          id: 'passwordReset',
          entry: enter('passwordReset'),
          ...visitorScreen({ BACK_TO_LOGIN: toSignIn }),
        },
        // Signed in with a password (aal1); the user has a verified TOTP factor: its code makes
        // the session aal2. No visitor redirect here: the visitor is the one being checked.
        mfaChallenge: {
          id: 'mfaChallenge',
          entry: enter('mfaChallenge'),
          initial: 'ready',
          states: {
            ready: {
              tags: 'ready',
              on: {
                SUBMIT: submitTo('verifying'),
                CANCEL: { target: 'cancelling' },
              },
            },
            verifying: {
              invoke: {
                id: 'verifyMfa',
                src: 'verifyMfa',
                input: ({ context }) => ({ factorId: context.mfaFactorId ?? '', code: context.mfaCode.replace(/\s+/g, '') }),
                onDone: {
                  target: '#registering',
                  actions: { type: 'keepSession', params: ({ event }) => ({ session: event.output }) },
                },
                onError: { target: 'ready', actions: { type: 'showMfaFailure', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            // Half signed in must not stay behind: leaving the step signs out.
            cancelling: signingOutTo(['endMfa']),
          },
        },
      },
    },
    // Signed in: does the user owe a second factor? Then the MFA step, else on.
    assuring: {
      id: 'assuring',
      initial: 'checking',
      states: {
        checking: {
          invoke: {
            id: 'checkAssurance',
            src: 'checkAssurance',
            onDone: [
              {
                guard: { type: 'hasFactor', params: ({ event }) => ({ factorId: event.output.factorId }) },
                target: '#mfaChallenge',
                actions: { type: 'startMfa', params: ({ event }) => ({ factorId: event.output.factorId ?? '' }) },
              },
              { target: '#registering' },
            ],
            // Fail closed: a sign-in whose second factor cannot be checked is undone, not let through.
            onError: { target: 'signingOut' },
          },
        },
        signingOut: signingOutTo(['endMfa', 'showUnexpected']),
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
        // The user is signed in either way; the actor reports its own failure (452/453).
        onError: { target: 'finishing' },
      },
    },
    finishing: {
      always: [
        { guard: 'isOverlay', target: 'closed', actions: ['emitAuthenticated', 'emitClose'] },
        { guard: 'isAlreadyThere', target: 'stayed' },
        { target: 'left', actions: 'emitNavigate' },
      ],
    },
    /** Overlay: authenticated and closed. */
    closed: { type: 'final' },
    /** Page: navigated away. */
    left: { type: 'final' },
    /**
     * Page: signed in on the page the route leads to, so nothing to navigate to; the view says
     * the user is signed in. A sign-out afterwards (the app's own button) shows the form again.
     */
    stayed: {
      id: 'stayed',
      on: {
        SESSION: {
          guard: { type: 'isSignedOut', params: ({ event }) => ({ loggedIn: event.loggedIn }) },
          target: '#signIn',
          actions: 'forgetSession',
        },
      },
    },
  },
});

function resendAddress(context: AuthDialogContext): string {
  return (context.alert?.values?.email ?? context.sentTo ?? context.email).trim();
}

/** The screen a snapshot shows (while signing in, the last one shown). */
export function screenOf(snapshot: AuthDialogSnapshot): AuthScreen {
  return snapshot.context.screen;
}

/** A request is under way: forms and buttons wait. Resting states carry the `ready` tag. */
export function isBusy(snapshot: AuthDialogSnapshot): boolean {
  return !snapshot.hasTag('ready');
}

/** The type of `authDialogMachine`. */
export type AuthDialogMachine = typeof authDialogMachine;
/** A running auth dialog machine, as `useAuthDialog` returns it. */
export type AuthDialogActorRef = ActorRefFrom<AuthDialogMachine>;
/** A snapshot of the auth dialog machine; `screenOf` and `isBusy` read it. */
export type AuthDialogSnapshot = SnapshotFrom<AuthDialogMachine>;
