import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { usePlatformClients, type ProfileUpdate } from '@limelight/widgets/api';
import { notify } from '@limelight/widgets/notifications';
import { useStrings } from '@limelight/widgets/platform';
import { ApiKeysPanel } from './ApiKeysPanel';
import { RegistryCredentialsPanel } from './RegistryCredentialsPanel';
import { useAccountResource } from './useAccountResource';
import * as page from '../page.css';
import * as styles from './account.css';

const FIELDS: Array<[keyof ProfileUpdate, string, string?]> = [
  ['full_name', 'Full name', 'name'],
  ['street', 'Street', 'address-line1'],
  ['number', 'Number'],
  ['address_extra', 'Address extra', 'address-line2'],
  ['zip_code', 'ZIP code', 'postal-code'],
  ['city', 'City', 'address-level2'],
  ['country_code', 'Country code', 'country'],
  ['mobile', 'Mobile', 'tel'],
  ['date_of_birth', 'Date of birth', 'bday'],
];

export default function ProfilePage() {
  const { profile } = usePlatformClients();
  const strings = useStrings().account;
  const load = useCallback(() => profile.profile(), [profile]);
  const current = useAccountResource(load, strings.loadProblem);
  const [form, setForm] = useState<ProfileUpdate>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!current.data) return;
    setForm(Object.fromEntries(FIELDS.map(([key]) => [key, current.data![key] ?? ''])) as ProfileUpdate);
  }, [current.data]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      const changes = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v === '' ? null : v])) as ProfileUpdate;
      const result = await profile.updateProfile(changes);
      if (result.ok) {
        current.setData(result.data);
        notify.success(strings.profileUpdated);
      } else {
        notify.warning(result.status >= 500 ? strings.updateProfileError : strings.updateProfileFailed);
      }
    } catch {
      notify.warning(strings.unexpected);
    } finally {
      setSaving(false);
    }
  };

  const agree = async () => {
    const result = await profile.agreeToTerms();
    if (result.ok) current.setData(result.data);
    else notify.warning(strings.termsProblem);
  };

  return (
    <div className={styles.page}>
      <h1>Profile</h1>
      {current.data?.is_new_user && (
        <div className={styles.notice} role="region" aria-label="Terms of service">
          <p>
            Welcome! Please accept our <a href="/terms_of_service">terms of service</a> to start using the platform. Your sign-up bonus of{' '}
            {current.data.sign_up_bonus} credits is waiting.
          </p>
          <button type="button" className={page.button()} onClick={agree}>
            I agree to the terms of service
          </button>
        </div>
      )}
      <section className={styles.panel} aria-labelledby="profile-title">
        <h2 id="profile-title" className={styles.panelTitle}>
          Your details
        </h2>
        {current.data && <p className={page.muted}>Signed in as {current.data.email}</p>}
        <form onSubmit={save} aria-busy={current.loading}>
          <div className={styles.formGrid}>
            {FIELDS.map(([key, label, autoComplete]) => (
              <label key={key} className={page.field}>
                {label}
                <input
                  className={page.input}
                  type={key === 'date_of_birth' ? 'date' : 'text'}
                  autoComplete={autoComplete}
                  value={(form[key] as string | null | undefined) ?? ''}
                  onChange={(e) => setForm({ ...form, [key]: e.target.value })}
                />
              </label>
            ))}
          </div>
          <button type="submit" className={page.button()} disabled={saving || !current.data}>
            Save profile
          </button>
        </form>
      </section>
      <ApiKeysPanel />
      <RegistryCredentialsPanel />
    </div>
  );
}
