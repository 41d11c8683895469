import { useCallback, useId } from 'react';
import { createPortal } from 'react-dom';
import { useStrings } from '../../config/PlatformProvider';
import { useThemeClass } from '../../config/useThemeClass';
import { useSession } from '../../auth/AuthProvider';
import { useControllableState } from '../../internal/useControllableState';
import type { AuthDialogActors } from '../../auth/authDialogActors';
import type { AuthScreen, PageScreen } from '../../auth/screens';
import type { AuthDialogMode, AuthRedirectUrls, AuthRoutes, Session } from '../../auth/types';
import * as styles from './AuthDialog.css';
import { AuthScreens, CrossIcon } from './AuthScreens';
import { useAuthDialog } from './useAuthDialog';
import { useModalDialog } from './useModalDialog';

/** Props of `AuthDialog`. */
export interface AuthDialogProps {
  /**
   * `page` renders the sign-in page in place (the /signinup route); `overlay` renders a modal
   * dialog with a close button over the host page (product-rules §2).
   * @default 'page'
   */
  mode?: AuthDialogMode;
  /**
   * The screen shown, controlled: 'signUp', 'signIn', 'accountCreated', 'recover',
   * 'recoverySent', 'setPassword' or 'passwordReset' (`pageStateOf` gives the URL's page_state
   * number). The overlay still starts at 'signIn' and moves to `value` right after.
   */
  value?: PageScreen;
  /**
   * Screen to start at when uncontrolled (ignored by the overlay, which starts at 'signIn').
   * @default 'signIn'
   */
  defaultValue?: PageScreen;
  /**
   * Called with the new screen whenever the user (or a result) moves the dialog, including
   * 'mfaChallenge', the code step of users with a second factor, which no URL names.
   */
  onValueChange?: (screen: AuthScreen) => void;
  /**
   * Overlay: whether the dialog is open, controlled. Each opening starts afresh at 'signIn'.
   */
  open?: boolean;
  /**
   * Overlay: whether the dialog is open at first, uncontrolled.
   * @default true
   */
  defaultOpen?: boolean;
  /** Overlay: called when the dialog asks to open or close. */
  onOpenChange?: (open: boolean) => void;
  /** Overlay: called when the dialog closes (close button, Escape, or after `onAuthenticated`). */
  onClose?: () => void;
  /** Called with the session after a sign-in in the overlay (product-rules §4: emits authenticated, then closes). */
  onAuthenticated?: (session: Session) => void;
  /**
   * The visitor returns from a password recovery link (query `passwordreset=true`): check the
   * session, then show 'setPassword'.
   * @default false
   */
  passwordReset?: boolean;
  /**
   * The visitor returns from the sign-up confirmation link (query `emailconfirmed=true`).
   * @default false
   */
  emailConfirmed?: boolean;
  /**
   * Absolute URLs the auth server sends the browser back to.
   * @default on the page's origin: /signinup?emailconfirmed=true, /signinup?passwordreset=true,
   * /signinup?page_state=1 (the overlay: the current page for social sign-in)
   */
  redirectUrls?: Partial<AuthRedirectUrls>;
  /**
   * App paths page mode navigates to after authentication (product-rules §2), through the platform's
   * `navigate()`; never to the address the page is on, where it stays and shows the user signed in
   * (a one-route app points both at its page: docs/frameworks.md).
   * @default { account: '/account', dashboard: '/account/dashboard' }
   */
  routes?: Partial<AuthRoutes>;
  /**
   * Overlay: element to render the dialog into. The dialog is a native modal `<dialog>` in the
   * top layer, so it needs no portal; by default it renders in place, which also works inside a
   * shadow root.
   * @default null
   */
  portalContainer?: Element | DocumentFragment | null;
  /**
   * Replaces the network actors (sign in, sign up, ...): another back end, or tests.
   * @default the actors of `createAuthDialogActors` on the page's auth client
   */
  actors?: Partial<AuthDialogActors>;
  /** Extra class on the root element. */
  className?: string;
}

/**
 * Sign-in and sign-up: the screens of one XState machine (`authDialogMachine`), as a page or as
 * a modal overlay, with the code step for users with a second factor. Uses the auth client and session store
 * of the nearest `AuthProvider`, or the page's shared ones for the platform's authUrl and authKey.
 */
export function AuthDialog(props: AuthDialogProps) {
  return props.mode === 'overlay' ? <AuthOverlay {...props} /> : <AuthPage {...props} />;
}

function AuthPage(props: AuthDialogProps) {
  const themeClass = useThemeClass();
  const strings = useStrings().auth;
  // Wait until the session is read (storage, or the link just followed), so a signed-in visitor
  // is sent on without first seeing the form, and a link's outcome is known.
  const initialized = useSession((state) => state.initialized);
  const titleId = useId();
  const className = [themeClass, styles.page, props.className].filter(Boolean).join(' ');
  if (!initialized) {
    return (
      <section className={className} aria-label={strings.dialogLabel} data-lime="auth-dialog" data-state="checking">
        <p role="status" className={styles.status}>
          {strings.guard.checking}
        </p>
      </section>
    );
  }
  return (
    <section className={className} aria-labelledby={titleId} data-lime="auth-dialog" data-mode="page">
      <PageBody {...props} titleId={titleId} />
    </section>
  );
}

function PageBody(props: AuthDialogProps & { titleId: string }) {
  const actorRef = useAuthDialog({ ...props, mode: 'page' });
  return <AuthScreens actorRef={actorRef} headingLevel={1} titleId={props.titleId} />;
}

function AuthOverlay(props: AuthDialogProps) {
  const { open: controlledOpen, defaultOpen = true, onOpenChange, onClose } = props;
  const [open, setOpen] = useControllableState(controlledOpen, defaultOpen, onOpenChange);
  const close = useCallback(() => {
    setOpen(false);
    onClose?.();
  }, [setOpen, onClose]);
  if (!open) return null;
  const dialog = <OverlayDialog {...props} onRequestClose={close} />;
  return props.portalContainer ? createPortal(dialog, props.portalContainer) : dialog;
}

function OverlayDialog(props: AuthDialogProps & { onRequestClose: () => void }) {
  const { onRequestClose } = props;
  const themeClass = useThemeClass();
  const strings = useStrings();
  const titleId = useId();
  const { ref, onKeyDown, onCancel } = useModalDialog(onRequestClose);
  const actorRef = useAuthDialog({ ...props, mode: 'overlay', onCloseRequest: onRequestClose });
  const className = [themeClass, styles.dialog, props.className].filter(Boolean).join(' ');
  return (
    <dialog
      ref={ref}
      className={className}
      aria-labelledby={titleId}
      aria-modal="true"
      data-lime="auth-dialog"
      data-mode="overlay"
      data-open=""
      onKeyDown={onKeyDown}
      onCancel={onCancel}
    >
      <AuthScreens
        actorRef={actorRef}
        headingLevel={2}
        titleId={titleId}
        headerEnd={
          <button type="button" className={styles.closeButton} aria-label={strings.common.close} onClick={onRequestClose}>
            <CrossIcon />
          </button>
        }
      />
    </dialog>
  );
}
