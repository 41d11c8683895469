import { useCallback, useState, type FormEvent } from 'react';
import { usePlatformClients } from '@limelight/widgets/api';
import { notify } from '@limelight/widgets/notifications';
import { CREDENTIAL_TOAST_MS, useStrings } from '@limelight/widgets/platform';
import { useAccountResource } from './useAccountResource';
import * as page from '../page.css';
import * as styles from './account.css';

/** Docker Hub access tokens for private images: stored encrypted, shown masked. */
export function RegistryCredentialsPanel() {
  const { profile } = usePlatformClients();
  const strings = useStrings().account;
  const load = useCallback(() => profile.getPatToken(), [profile]);
  const credentials = useAccountResource(load, strings.loadProblem);
  const [form, setForm] = useState({ foreign_username: '', credential_alias: '', pat: '' });

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.foreign_username.trim() || !form.pat.trim()) return;
    const result = await profile.upsertPat({ ...form, platform: 'dockerhub' });
    if (!result.ok) return notify.warning(strings.createPatProblem);
    notify.success(strings.patAdded, { autoClearMs: CREDENTIAL_TOAST_MS });
    setForm({ foreign_username: '', credential_alias: '', pat: '' });
    void credentials.reload();
  };

  const remove = async (id: string) => {
    const result = await profile.deletePat(id);
    if (!result.ok) return notify.warning(strings.deletePatProblem);
    void credentials.reload();
  };

  const field = (name: keyof typeof form, label: string, type = 'text') => (
    <label className={page.field}>
      {label}
      <input
        className={page.input}
        type={type}
        value={form[name]}
        autoComplete="off"
        required
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
      />
    </label>
  );

  return (
    <section className={styles.panel} aria-labelledby="registry-title">
      <h2 id="registry-title" className={styles.panelTitle}>
        Docker Hub credentials
      </h2>
      <form onSubmit={add} className={styles.formGrid}>
        {field('foreign_username', 'Docker Hub username')}
        {field('credential_alias', 'Alias')}
        {field('pat', 'Access token', 'password')}
        <div className={styles.row}>
          <button type="submit" className={page.button()}>
            Add token
          </button>
        </div>
      </form>
      {credentials.data && credentials.data.length > 0 && (
        <ul>
          {credentials.data.map((c) => (
            <li key={c.id} className={styles.row}>
              <span>
                {c.credential_alias || c.alias} · {c.foreign_username} · <code>{c.pat}</code>
              </span>
              <button
                type="button"
                className={page.button({ tone: 'outline' })}
                onClick={() => remove(c.id)}
                aria-label={`Delete token ${c.credential_alias || c.alias}`}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
