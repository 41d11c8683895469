import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { usePlatform } from '../../config/PlatformProvider';
import { notify } from '../../notifications/notify';
import { useAuth, useSession } from '../../auth/AuthProvider';
import { createAuthDialogActors, type AuthDialogActors } from '../../auth/authDialogActors';
import { authDialogMachine, screenOf, type AuthDialogActorRef } from '../../auth/authDialogMachine';
import { takeOAuthReturn } from '../../auth/oauthReturn';
import type { AuthScreen, PageScreen } from '../../auth/screens';
import { defaultRedirectUrls, type AuthDialogMode, type AuthRedirectUrls, type AuthRoutes, type Session } from '../../auth/types';

/** Options of `useAuthDialog` (the same as the dialog's props that drive its behaviour). */
export interface UseAuthDialogOptions {
  /** 'page' navigates after authentication; 'overlay' starts at sign-in and calls back instead. */
  mode: AuthDialogMode;
  /** Controlled screen; a change moves the machine. */
  value?: PageScreen;
  /** Screen to start at. @default 'signIn' */
  defaultValue?: PageScreen;
  /** Called when the machine's screen changes (including the MFA step, which no URL names). */
  onValueChange?: (screen: AuthScreen) => void;
  /** Called with the session after a sign-in (overlay mode). */
  onAuthenticated?: (session: Session) => void;
  /** The machine asked to close (overlay, after authentication). */
  onCloseRequest?: () => void;
  /** Back from a recovery link (passwordreset=true). @default false */
  passwordReset?: boolean;
  /** Back from the confirmation link (emailconfirmed=true). @default false */
  emailConfirmed?: boolean;
  /** Where e-mail links and OAuth return to. @default on window.location.origin */
  redirectUrls?: Partial<AuthRedirectUrls>;
  /**
   * Paths page mode navigates to, never to the page it is on. @default { account: '/account', dashboard: '/account/dashboard' }
   */
  routes?: Partial<AuthRoutes>;
  /** Replaces network actors. @default the page auth client's */
  actors?: Partial<AuthDialogActors>;
}

/**
 * Headless auth dialog: runs `authDialogMachine` on the page's auth client, feeds it the login
 * status, keeps `value` and the machine's screen in step, and turns the machine's emitted
 * events into navigation (page mode) or callbacks (overlay mode). Returns the actor; views read
 * narrow slices of it with `useSelector`.
 */
export function useAuthDialog(options: UseAuthDialogOptions): AuthDialogActorRef {
  const { client, store } = useAuth();
  const platform = usePlatform();
  const latest = useRef({ options, platform });
  useEffect(() => {
    latest.current = { options, platform };
  });

  const logic = useMemo(
    () => {
      const origin = typeof window !== 'undefined' ? window.location.origin : platform.apiUrl;
      const redirectUrls: AuthRedirectUrls = {
        ...defaultRedirectUrls(origin),
        // An overlay on someone else's page comes back to that page after a social sign-in.
        ...(options.mode === 'overlay' && typeof window !== 'undefined' ? { social: window.location.href } : {}),
        ...options.redirectUrls,
      };
      const actors = createAuthDialogActors(client, {
        redirectUrls,
        async registerSignIn(accessToken) {
          const { platform: current } = latest.current;
          // The API client (ofetch) loads only once someone signs in, keeping it out of the
          // overlay embed's first script.
          const { createProfileClient } = await import('../../api/profile');
          // The token the sign-in just returned, else the usual rule (createTokenSource).
          const profile = createProfileClient({
            baseURL: current.apiUrl,
            accessToken,
            getAccessToken: current.getAccessToken,
            session: store,
          });
          const result = await profile.signInSignUp();
          // product-rules §8: 452 warning, 453 critical, others the generic text.
          if (!result.ok) notify.apiFailure(result, current.strings.notifications.status);
        },
      });
      return authDialogMachine.provide({ actors: { ...actors, ...options.actors } });
    },
    // The machine is made once per mount; later option changes reach it through events.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const initial = store.getSnapshot();
  const actorRef = useActorRef(logic, {
    input: {
      mode: options.mode,
      screen: options.value ?? options.defaultValue,
      passwordReset: options.passwordReset,
      emailConfirmed: options.emailConfirmed,
      linkError: initial.linkError !== null,
      // A social sign-in that came back with an error: shown inline, taken out of the address bar.
      oauthError: takeOAuthReturn() ?? undefined,
      loggedIn: initial.isLoggedIn,
      routes: options.routes,
      // Page mode never navigates to the page it is on (a one-route app would reload for ever).
      location: typeof window !== 'undefined' ? window.location.href : undefined,
    },
  });

  useEffect(() => {
    const subscriptions = [
      actorRef.on('navigate', (event) => latest.current.platform.navigate(event.to)),
      actorRef.on('authenticated', (event) => latest.current.options.onAuthenticated?.(event.session)),
      actorRef.on('close', () => latest.current.options.onCloseRequest?.()),
    ];
    return () => subscriptions.forEach((s) => s.unsubscribe());
  }, [actorRef]);

  // product-rules §4: the login status drives the "logged-in visitor" redirect.
  const loggedIn = useSession((state) => state.isLoggedIn);
  useEffect(() => {
    actorRef.send({ type: 'SESSION', loggedIn });
  }, [actorRef, loggedIn]);

  // value -> machine: a controlled screen moves the machine.
  const screen = useSelector(actorRef, screenOf);
  const { value } = options;
  useEffect(() => {
    if (value !== undefined && value !== screenOf(actorRef.getSnapshot())) {
      actorRef.send({ type: 'SET_SCREEN', screen: value });
    }
  }, [actorRef, value]);

  // machine -> onValueChange.
  const reported = useRef(screen);
  useEffect(() => {
    if (screen === reported.current) return;
    reported.current = screen;
    latest.current.options.onValueChange?.(screen);
  }, [screen]);

  return actorRef;
}
