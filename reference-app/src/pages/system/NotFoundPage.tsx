import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import * as styles from '../page.css';

/** product-rules §9: the 404 page counts down 6 seconds, then goes home. */
export const NOT_FOUND_REDIRECT_SECONDS = 6;

export default function NotFoundPage() {
  const [remaining, setRemaining] = useState(NOT_FOUND_REDIRECT_SECONDS);
  const navigate = useNavigate();
  useEffect(() => {
    if (remaining <= 0) {
      void navigate('/', { replace: true });
      return;
    }
    const timer = setTimeout(() => setRemaining((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [remaining, navigate]);
  return (
    <article className={styles.hero}>
      <h1 className={styles.heroTitle}>404 · Page not found</h1>
      <p className={styles.lead} aria-live="polite">
        Taking you home in <span data-testid="countdown">{remaining}</span> seconds…
      </p>
      <Link className={styles.button()} to="/">
        Go home now
      </Link>
    </article>
  );
}
