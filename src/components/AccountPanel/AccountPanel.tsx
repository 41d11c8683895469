import { createElement, lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { useStrings } from '../../config/PlatformProvider';
import { useThemeClass } from '../../config/useThemeClass';
import * as styles from './AccountPanel.css';
import type { Feedback } from './useFeedback';
import { useSignInState } from './useSignedIn';

export type HeadingLevel = 0 | 2 | 3 | 4 | 5 | 6;

/** Props every account panel takes. */
export interface AccountPanelBaseProps {
  /**
   * Heading level of the panel's title, or 0 for no visible title (the panel is still named by
   * it).
   * @default 2
   */
  headingLevel?: HeadingLevel;
  /** Extra class on the panel's root element. */
  className?: string;
}

interface AccountPanelProps extends AccountPanelBaseProps {
  /** `data-lime` name of the panel, for host CSS and tests. */
  name: string;
  title: string;
  /** The panel's last message (success, warning). */
  feedback?: Feedback | null;
  onDismissFeedback?: () => void;
  /** Shown while the panel loads its data. */
  busy?: boolean;
  /** The panel's content, rendered for a signed-in visitor only. */
  children: ReactNode;
}

/**
 * The frame of every account panel: a titled card that waits for the session, asks a
 * signed-out visitor to sign in (opening the auth dialog overlay on the same session store),
 * and shows the panel's last message. The message sits in a live region that is always
 * present, so screen readers announce it when it appears.
 */
export function AccountPanel({ name, title, headingLevel = 2, className, feedback, onDismissFeedback, busy, children }: AccountPanelProps) {
  const strings = useStrings().account;
  const themeClass = useThemeClass();
  const titleId = useId();
  const signIn = useSignInState();
  const heading =
    headingLevel === 0 ? (
      <span id={titleId} className={styles.visuallyHidden}>
        {title}
      </span>
    ) : (
      createElement(`h${headingLevel}`, { id: titleId, className: styles.title }, title)
    );
  return (
    <section
      className={[themeClass, styles.panel, className].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      aria-busy={signIn === 'checking' || busy ? true : undefined}
      data-lime={name}
      data-state={signIn}
    >
      {heading}
      {signIn === 'checking' && (
        <p className={styles.muted} role="status">
          {strings.checkingSession}
        </p>
      )}
      {signIn === 'signed-out' && <SignInPrompt />}
      {signIn === 'signed-in' && children}
      <div className={feedback ? styles.row : undefined}>
        <div role="status" aria-live="polite" className={feedback ? undefined : styles.visuallyHidden}>
          {feedback && (
            <p className={styles.feedback({ tone: feedback.tone })} data-tone={feedback.tone}>
              {feedback.message}
            </p>
          )}
        </div>
        {feedback && onDismissFeedback && feedback.tone !== 'success' && (
          <button type="button" className={styles.button({ tone: 'outline' })} onClick={onDismissFeedback}>
            {strings.dismiss}
          </button>
        )}
      </div>
    </section>
  );
}

// The sign-in overlay (its machine and screens) loads when a signed-out visitor asks for it:
// most visits to an account panel are signed in, and the script-tag bundles stay smaller.
const AuthDialog = lazy(() => import('../AuthDialog/AuthDialog').then((m) => ({ default: m.AuthDialog })));

/** Signed out: a short prompt and a button that opens the sign-in overlay. */
function SignInPrompt() {
  const strings = useStrings().account;
  const [open, setOpen] = useState(false);
  return (
    <div className={styles.row}>
      <p className={styles.muted}>{strings.signInPrompt}</p>
      <button type="button" className={styles.button()} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {strings.signIn}
      </button>
      {open && (
        <Suspense fallback={null}>
          <AuthDialog mode="overlay" open onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
