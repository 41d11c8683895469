import { sampleCode } from '../../site/content';
import * as styles from '../page.css';

// Placeholder until the code viewer lands: the sample as plain preformatted text.
export function SampleCode() {
  return (
    <pre className={styles.card}>
      <code>{sampleCode}</code>
    </pre>
  );
}
