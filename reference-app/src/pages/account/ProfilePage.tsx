import { Link } from 'react-router';
import { ChangePasswordForm } from '@limelight/widgets/change-password-form';
import { MfaPanel } from '@limelight/widgets/mfa-panel';
import { ProfileForm } from '@limelight/widgets/profile-form';
import { RegistryCredentialsPanel } from '@limelight/widgets/registry-credentials-panel';
import * as styles from './account.css';

/** The account's profile page, assembled from the library's account panels. */
export default function ProfilePage() {
  return (
    <div className={styles.page}>
      <h1>Profile</h1>
      {/* Keys moved to a page of their own (issue 39); a bookmark of this page still finds them. */}
      <p className={styles.moved}>
        Looking for your API keys? They have <Link to="/account/api-keys">a page of their own</Link>.
      </p>
      <ProfileForm />
      <ChangePasswordForm />
      <MfaPanel />
      <RegistryCredentialsPanel />
    </div>
  );
}
