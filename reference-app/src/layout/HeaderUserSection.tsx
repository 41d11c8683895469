import { Link } from 'react-router';
import { useGlobalEvents } from '@limelight/widgets/notifications';
import { SIGN_IN_PATH } from '@limelight/widgets/auth';
import * as styles from './account/account-chrome.css';

/**
 * product-rules §2: anonymous visitors see a Login button to /signinup?page_state=1; logged-in users see
 * a Dashboard button to /account/dashboard instead. Nothing while the status is still unknown,
 * so a signed-in visitor never sees Login flash by.
 */
export function HeaderUserSection() {
  const loggedIn = useGlobalEvents((state) => state.is_logged_in);
  if (loggedIn === null) return null;
  return loggedIn ? (
    <Link to="/account/dashboard" className={styles.userButton({ tone: 'outline' })}>
      Dashboard
    </Link>
  ) : (
    <Link to={SIGN_IN_PATH} className={styles.userButton()}>
      Login
    </Link>
  );
}
