import { useCallback, useId, useState } from 'react';
import { API_KEY_DEFAULT_LIFETIME_DAYS, usePlatformClients, type CreatedApiKey } from '@limelight/widgets/api';
import { notify } from '@limelight/widgets/notifications';
import { useStrings } from '@limelight/widgets/platform';
import { useAccountResource } from './useAccountResource';
import * as page from '../page.css';
import * as styles from './account.css';

const LIFETIMES = [30, 90, API_KEY_DEFAULT_LIFETIME_DAYS, 365];

/** API keys: list, create (the secret is shown once), delete. */
export function ApiKeysPanel() {
  const { profile } = usePlatformClients();
  const strings = useStrings().account;
  const load = useCallback(() => profile.apiKeys(), [profile]);
  const keys = useAccountResource(load, strings.loadProblem);
  const [lifetime, setLifetime] = useState(API_KEY_DEFAULT_LIFETIME_DAYS);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const lifetimeId = useId();

  const create = async () => {
    const result = await profile.createApiKey(lifetime);
    if (!result.ok) return notify.warning(strings.createKeyProblem);
    setCreated(result.data);
    void keys.reload();
  };

  const remove = async (id: string) => {
    const result = await profile.deleteApiKey(id);
    if (!result.ok) return notify.warning(strings.deleteKeyProblem);
    if (created?.id === id) setCreated(null);
    void keys.reload();
  };

  return (
    <section className={styles.panel} aria-labelledby="api-keys-title">
      <h2 id="api-keys-title" className={styles.panelTitle}>
        API keys
      </h2>
      {created && (
        <div className={styles.notice} role="status">
          <p>Copy your new key now. It is shown only once.</p>
          <p className={styles.secret} data-testid="new-api-key">
            {created.secret}
          </p>
        </div>
      )}
      <div className={styles.row}>
        <label className={page.field} htmlFor={lifetimeId}>
          Valid for
          <select id={lifetimeId} className={page.input} value={lifetime} onChange={(e) => setLifetime(Number(e.target.value))}>
            {LIFETIMES.map((days) => (
              <option key={days} value={days}>
                {days} days
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={page.button()} onClick={create}>
          Create API key
        </button>
      </div>
      {keys.data && keys.data.length === 0 && <p className={page.muted}>You have no API keys yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <table className={page.table}>
          <thead>
            <tr>
              <th className={page.th} scope="col">
                Key
              </th>
              <th className={page.th} scope="col">
                Created
              </th>
              <th className={page.th} scope="col">
                Expires
              </th>
              <th className={page.th} scope="col">
                <span className={page.muted}>Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id}>
                <td className={page.td}>
                  <code>{key.display_value}</code>
                </td>
                <td className={page.td}>{new Date(key.created_at).toLocaleDateString()}</td>
                <td className={page.td}>{new Date(key.expiration_date).toLocaleDateString()}</td>
                <td className={page.td}>
                  <button
                    type="button"
                    className={page.button({ tone: 'outline' })}
                    onClick={() => remove(key.id)}
                    aria-label={`Delete key ${key.display_value}`}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
