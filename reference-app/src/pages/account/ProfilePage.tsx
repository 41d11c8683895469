import { ApiKeysPanel } from '@limelight/widgets/api-keys-panel';
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
      <ProfileForm />
      <ChangePasswordForm />
      <MfaPanel />
      <ApiKeysPanel />
      <RegistryCredentialsPanel />
    </div>
  );
}
