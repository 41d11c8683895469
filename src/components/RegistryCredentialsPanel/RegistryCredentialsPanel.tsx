import { formatString } from '../../config/strings';
import { useStrings } from '../../config/PlatformProvider';
import { AccountPanel, Field, type AccountPanelBaseProps } from '../AccountPanel';
import * as styles from '../AccountPanel/AccountPanel.css';
import { useRegistryCredentialsPanel, type UseRegistryCredentialsPanelOptions } from './useRegistryCredentialsPanel';

/** Props of `RegistryCredentialsPanel`. */
export interface RegistryCredentialsPanelProps extends AccountPanelBaseProps, UseRegistryCredentialsPanelOptions {}

/** Registry access tokens for hosting private images (Docker Hub or any host[:port]): add one (confirmed for 3 s), list them masked, delete one. */
export function RegistryCredentialsPanel({ headingLevel, className, ...options }: RegistryCredentialsPanelProps) {
  const strings = useStrings().account;
  const panel = useRegistryCredentialsPanel(options);
  const list = panel.credentials.data;
  return (
    <AccountPanel
      name="registry-credentials"
      title={strings.registryTitle}
      headingLevel={headingLevel}
      className={className}
      feedback={panel.feedback.feedback}
      onDismissFeedback={panel.feedback.clear}
      busy={panel.credentials.status === 'loading' || panel.pending}
    >
      <form className={styles.stack} onSubmit={(e) => void panel.add(e)} noValidate>
        <div className={styles.formGrid}>
          <Field
            label={strings.registryHost}
            autoComplete="off"
            placeholder="docker.io"
            value={panel.form.registry}
            onValueChange={(v) => panel.setField('registry', v)}
          />
          <Field
            label={strings.registryUsername}
            autoComplete="off"
            required
            value={panel.form.foreign_username}
            onValueChange={(v) => panel.setField('foreign_username', v)}
            error={panel.missing.foreign_username && formatString(strings.fieldRequired, { field: strings.registryUsername })}
          />
          <Field
            label={strings.registryAlias}
            autoComplete="off"
            value={panel.form.credential_alias}
            onValueChange={(v) => panel.setField('credential_alias', v)}
          />
          <Field
            label={strings.registryToken}
            type="password"
            autoComplete="off"
            required
            value={panel.form.pat}
            onValueChange={(v) => panel.setField('pat', v)}
            error={panel.missing.pat && formatString(strings.fieldRequired, { field: strings.registryToken })}
          />
        </div>
        <div className={styles.row}>
          <button type="submit" className={styles.button()} disabled={panel.pending}>
            {strings.addToken}
          </button>
        </div>
      </form>
      {list && list.length === 0 && <p className={styles.muted}>{strings.noTokens}</p>}
      {list && list.length > 0 && (
        <ul className={styles.stack} aria-label={strings.registryTitle}>
          {list.map((c) => {
            const alias = c.credential_alias || c.alias || c.foreign_username;
            return (
              <li key={c.id} className={styles.row}>
                <span>
                  <strong>{alias}</strong> · {c.registry || 'docker.io'} · {c.foreign_username} · <code>{c.pat}</code>
                </span>
                <button
                  type="button"
                  className={styles.button({ tone: 'danger' })}
                  onClick={() => void panel.remove(c.id)}
                  disabled={panel.pending}
                  aria-label={formatString(strings.deleteToken, { alias })}
                >
                  {strings.delete}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </AccountPanel>
  );
}
