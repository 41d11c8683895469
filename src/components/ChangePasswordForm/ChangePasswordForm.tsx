import { useStrings } from '../../config/PlatformProvider';
import { AccountPanel, Field, type AccountPanelBaseProps } from '../AccountPanel';
import * as styles from '../AccountPanel/AccountPanel.css';
import { useChangePasswordForm, type UseChangePasswordFormOptions } from './useChangePasswordForm';

/** Props of `ChangePasswordForm`. */
export interface ChangePasswordFormProps extends AccountPanelBaseProps, UseChangePasswordFormOptions {}

/**
 * Changes the signed-in user's password (product-rules §5): the current password is checked first by
 * signing in with it; the messages are the spec's, letter for letter.
 */
export function ChangePasswordForm({ headingLevel, className, ...options }: ChangePasswordFormProps) {
  const strings = useStrings().account;
  const form = useChangePasswordForm(options);
  return (
    <AccountPanel
      name="change-password"
      title={strings.changePasswordTitle}
      headingLevel={headingLevel}
      className={className}
      feedback={form.feedback.feedback}
      onDismissFeedback={form.feedback.clear}
      busy={form.pending}
    >
      <form className={styles.stack} onSubmit={(e) => void form.submit(e)} noValidate>
        <div className={styles.formGrid}>
          <Field
            type="password"
            label={strings.currentPassword}
            autoComplete="current-password"
            value={form.currentPassword}
            onValueChange={form.setCurrentPassword}
            error={form.errors.currentPassword}
          />
          <Field
            type="password"
            label={strings.newPassword}
            autoComplete="new-password"
            value={form.newPassword}
            onValueChange={form.setNewPassword}
            error={form.errors.newPassword}
          />
        </div>
        <div className={styles.row}>
          <button type="submit" className={styles.button()} disabled={form.pending}>
            {strings.changePassword}
          </button>
        </div>
      </form>
    </AccountPanel>
  );
}
