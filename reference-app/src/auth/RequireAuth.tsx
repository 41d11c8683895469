import { useEffect, type ReactNode } from 'react';
import { SIGN_IN_PATH, useRequireAuth } from '@limelight/widgets/auth';
import { useStrings } from '@limelight/widgets/platform';
import * as styles from '../layout/account/account-chrome.css';
import { logoutLanded, useLoggingOut } from './session';

/**
 * Route guard of product-rules §4: renders the protected content when logged in; while the login status
 * is unknown it waits (up to 3 s, showing `fallback`); a visitor who is not logged in is sent to
 * /signinup?page_state=1. A user who just clicked Logout goes to / instead (product-rules §2).
 */
export function RequireAuth({ children, fallback }: { children: ReactNode; fallback?: (message: ReactNode) => ReactNode }) {
  const loggingOut = useLoggingOut();
  const decision = useRequireAuth({ signInPath: loggingOut ? '/' : SIGN_IN_PATH });
  useEffect(() => logoutLanded, []);
  const strings = useStrings().auth;
  if (decision === 'pass') return <>{children}</>;
  const message = (
    <p role="status" className={styles.checking}>
      {strings.guard.checking}
    </p>
  );
  return <>{fallback ? fallback(message) : message}</>;
}
