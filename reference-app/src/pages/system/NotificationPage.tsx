import { useSearchParams } from 'react-router';
import * as styles from '../page.css';

/** Landing page for links in e-mails and payment redirects: shows the message it is given. */
export default function NotificationPage() {
  const [params] = useSearchParams();
  const title = params.get('title') ?? 'Notification';
  const message = params.get('message') ?? 'There is nothing new for you right now.';
  return (
    <article className={styles.prose}>
      <h1>{title}</h1>
      <p role="status">{message}</p>
    </article>
  );
}
