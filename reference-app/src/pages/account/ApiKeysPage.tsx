import { ApiKeysPanel } from '@limelight/widgets/api-keys-panel';
import * as page from '../page.css';
import * as styles from './account.css';

/**
 * The account's API keys on a page of their own (issue 39, item 4, as Stripe's dashboard has
 * one): each key's name, what it can do, when it was created, last used and expires.
 */
export default function ApiKeysPage() {
  return (
    <div className={styles.page}>
      <h1>API keys</h1>
      <p className={page.muted}>
        Keys let your programs and the <code>limelight</code> command line call the platform as you. Send one as{' '}
        <code>Authorization: Bearer lime_…</code>.
      </p>
      <ApiKeysPanel headingLevel={2} />
    </div>
  );
}
