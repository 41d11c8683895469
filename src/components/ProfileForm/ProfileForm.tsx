import { formatString } from '../../config/strings';
import { useStrings } from '../../config/PlatformProvider';
import { AccountPanel, Field, type AccountPanelBaseProps } from '../AccountPanel';
import * as styles from '../AccountPanel/AccountPanel.css';
import { CountryField } from './CountryField';
import { PROFILE_FIELDS, useProfileForm, type UseProfileFormOptions } from './useProfileForm';

/** Props of `ProfileForm`. */
export interface ProfileFormProps extends AccountPanelBaseProps, UseProfileFormOptions {
  /**
   * Where the terms of service are, linked from the new user's agreement.
   * @default '/terms_of_service'
   */
  termsUrl?: string;
}

/**
 * The signed-in user's details (product-rules §3: name, address, mobile, date of birth). A new user is
 * first asked to accept the terms of service, which releases the sign-up bonus.
 */
export function ProfileForm({ headingLevel, className, termsUrl = '/terms_of_service', ...options }: ProfileFormProps) {
  const strings = useStrings().account;
  const form = useProfileForm(options);
  const data = form.profile.data;
  return (
    <AccountPanel
      name="profile-form"
      title={strings.profileTitle}
      headingLevel={headingLevel}
      className={className}
      feedback={form.feedback.feedback}
      onDismissFeedback={form.feedback.clear}
      busy={form.profile.status === 'loading' || form.saving}
    >
      {data?.is_new_user && (
        <div className={styles.notice} role="region" aria-label={strings.termsLabel}>
          <p className={styles.muted}>{formatString(strings.termsWelcome, { bonus: data.sign_up_bonus })}</p>
          <div className={styles.row}>
            <a className={styles.noticeLink} href={termsUrl} target="_blank" rel="noreferrer">
              {strings.termsLink}
            </a>
            <button type="button" className={styles.button()} onClick={() => void form.agree()}>
              {strings.agreeToTerms}
            </button>
          </div>
        </div>
      )}
      {data && <p className={styles.muted}>{formatString(strings.signedInAs, { email: data.email })}</p>}
      <form className={styles.stack} onSubmit={(e) => void form.save(e)}>
        <div className={styles.formGrid}>
          {PROFILE_FIELDS.map(({ key, label, autoComplete, type }) =>
            key === 'country_code' ? (
              <CountryField
                key={key}
                label={strings[label]}
                value={form.draft[key]}
                onValueChange={(value) => form.setField(key, value)}
                error={form.fieldErrors[key]}
                disabled={!data}
              />
            ) : (
              <Field
                key={key}
                label={strings[label]}
                type={type ?? 'text'}
                autoComplete={autoComplete}
                value={form.draft[key]}
                onValueChange={(value) => form.setField(key, value)}
                error={form.fieldErrors[key]}
                disabled={!data}
              />
            ),
          )}
        </div>
        <div className={styles.row}>
          <button type="submit" className={styles.button()} disabled={form.saving || !data}>
            {strings.saveProfile}
          </button>
        </div>
      </form>
    </AccountPanel>
  );
}
