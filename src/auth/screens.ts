import type { AuthForm } from './validation';

/**
 * The screens of the auth dialog, the one table the machine's routing, the views, their titles
 * and forms derive from (see docs/architecture.md, "Auth dialog screens"). Seven of them are the
 * sign-in page states of product-rules §4: their `pageState` is the number the
 * `/signinup?page_state=N` URL carries, and that URL is the only place numbers appear. `mfaChallenge` is a step after a password sign-in
 * for users with a verified TOTP factor; it has no page_state (a link cannot open it).
 */
export const AUTH_SCREENS = {
  signUp: { pageState: 0, form: 'credentials' },
  signIn: { pageState: 1, form: 'credentials' },
  accountCreated: { pageState: 2, form: 'emailCode' },
  recover: { pageState: 3, form: 'recovery' },
  recoverySent: { pageState: 4, form: null },
  setPassword: { pageState: 5, form: 'newPassword' },
  passwordReset: { pageState: 6, form: null },
  mfaChallenge: { pageState: null, form: 'mfaCode' },
} as const satisfies Record<string, { pageState: number | null; form: AuthForm | null }>;

/** Every screen of the dialog. */
export type AuthScreen = keyof typeof AUTH_SCREENS;

/** A screen a URL (or the `value` prop) can open: one of the seven page states. */
export type PageScreen = { [S in AuthScreen]: (typeof AUTH_SCREENS)[S]['pageState'] extends number ? S : never }[AuthScreen];

/** The `page_state` numbers of the URL: 0 sign up ... 6 password reset. */
export type PageState = (typeof AUTH_SCREENS)[PageScreen]['pageState'];

export const AUTH_SCREEN_NAMES = Object.keys(AUTH_SCREENS) as AuthScreen[];

/** The seven page screens, in page_state order. */
export const PAGE_SCREENS = AUTH_SCREEN_NAMES.filter((s): s is PageScreen => AUTH_SCREENS[s].pageState !== null).sort(
  (a, b) => AUTH_SCREENS[a].pageState! - AUTH_SCREENS[b].pageState!,
);

/** The page_state numbers 0-6. */
export const PAGE_STATES: readonly PageState[] = PAGE_SCREENS.map((s) => AUTH_SCREENS[s].pageState);

export function isPageScreen(value: unknown): value is PageScreen {
  return typeof value === 'string' && (PAGE_SCREENS as readonly string[]).includes(value);
}

/** The page_state number of a screen, or null for a screen no URL names (the MFA step). */
export function pageStateOf(screen: AuthScreen): PageState | null {
  return AUTH_SCREENS[screen].pageState;
}

/** The screen of a page_state number; anything but 0-6 gives undefined. */
export function screenOfPageState(pageState: number): PageScreen | undefined {
  return PAGE_SCREENS[pageState];
}

/** Parses a `page_state` query value into its screen; anything but 0-6 gives `fallback`. */
export function parsePageState(value: string | null | undefined, fallback: PageScreen = 'signIn'): PageScreen {
  if (value == null || !/^[0-6]$/.test(value.trim())) return fallback;
  return screenOfPageState(Number(value.trim())) ?? fallback;
}

/** Which form a screen shows (null: none). */
export function formOf(screen: AuthScreen): AuthForm | null {
  return AUTH_SCREENS[screen].form;
}
