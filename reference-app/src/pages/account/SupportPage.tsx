import { SupportForm } from '@limelight/widgets/support-form';
import * as styles from './account.css';

export default function SupportPage() {
  return (
    <div className={styles.page}>
      <h1>Support</h1>
      <SupportForm />
    </div>
  );
}
