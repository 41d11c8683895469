import { Link } from 'react-router';
import { SIGN_IN_PATH } from '@limelight/widgets/auth';
import { useGlobalEvents } from '@limelight/widgets/notifications';
import * as page from '../page.css';

/**
 * /SignedOut (product-rules §2). The spec lands a logout on / and shows this page's content only by
 * name; it tells a visitor whose session ended that they are signed out, with the way back in.
 */
export default function SignedOutPage() {
  const loggedIn = useGlobalEvents((state) => state.is_logged_in);
  return (
    <section className={page.hero} aria-labelledby="signed-out-title">
      <h1 id="signed-out-title" className={page.heroTitle}>
        {loggedIn ? 'You are signed in' : 'You are signed out'}
      </h1>
      <p className={page.lead}>
        {loggedIn
          ? 'Your session is still active on this device.'
          : 'Your session has ended. Sign in again to get back to your dashboard, or keep browsing the marketplace.'}
      </p>
      <div className={page.buttonRow}>
        {loggedIn ? (
          <Link to="/account/dashboard" className={page.button()}>
            Go to dashboard
          </Link>
        ) : (
          <Link to={SIGN_IN_PATH} className={page.button()}>
            Sign in
          </Link>
        )}
        <Link to="/" className={page.button({ tone: 'outline' })}>
          Home
        </Link>
      </div>
    </section>
  );
}
