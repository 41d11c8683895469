import { useEffect, useId, useRef } from 'react';
import { formatString } from '../../config/strings';
import { useStrings } from '../../config/PlatformProvider';
import type { ApiKey } from '../../api/types';
import { AccountPanel, Field, formatDate, type AccountPanelBaseProps } from '../AccountPanel';
import * as styles from '../AccountPanel/AccountPanel.css';
import { useCopyButton } from '../CodeViewer/useCopyButton';
import { API_KEY_LIFETIMES, API_KEY_NAME_MAX, isExpired, sortKeys, useApiKeysPanel, type UseApiKeysPanelOptions } from './useApiKeysPanel';

/** Props of `ApiKeysPanel`. */
export interface ApiKeysPanelProps extends AccountPanelBaseProps, UseApiKeysPanelOptions {}

/**
 * API keys of the signed-in user: create one with a name and a lifetime (183 days by default; its
 * secret is shown once, with a copy button), list them with their name, what they can do, when
 * they were created, last used and expire, delete one after a confirmation. Signed out, it offers
 * the sign-in overlay.
 */
export function ApiKeysPanel({ headingLevel, className, ...options }: ApiKeysPanelProps) {
  const strings = useStrings().account;
  const panel = useApiKeysPanel(options);
  const lifetimeId = useId();
  // The clock only once keys arrived (never in a server render: render stays pure).
  const now = panel.keys.data ? Date.now() : 0;
  const keys = panel.keys.data ? sortKeys(panel.keys.data, now) : null;
  return (
    <AccountPanel
      name="api-keys"
      title={strings.apiKeysTitle}
      headingLevel={headingLevel}
      className={className}
      feedback={panel.feedback.feedback}
      onDismissFeedback={panel.feedback.clear}
      busy={panel.keys.status === 'loading'}
    >
      {panel.created && <NewKey secret={panel.created.secret} onDismiss={panel.dismissCreated} />}
      <div className={styles.row}>
        <Field
          label={strings.apiKeyName}
          value={panel.name}
          onValueChange={panel.setName}
          maxLength={API_KEY_NAME_MAX}
          placeholder={strings.apiKeyNamePlaceholder}
          autoComplete="off"
        />
        <label className={styles.field} htmlFor={lifetimeId}>
          {strings.apiKeyLifetime}
          <select
            id={lifetimeId}
            className={styles.input}
            value={panel.lifetime}
            onChange={(e) => panel.setLifetime(Number(e.target.value))}
          >
            {API_KEY_LIFETIMES.map((days) => (
              <option key={days} value={days}>
                {formatString(strings.apiKeyDays, { days })}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={styles.button()} onClick={() => void panel.create()} disabled={panel.pending}>
          {strings.createApiKey}
        </button>
      </div>
      <p className={styles.muted}>{strings.apiKeyScopesNote}</p>
      {keys && keys.length === 0 && <p className={styles.muted}>{strings.noApiKeys}</p>}
      {keys && keys.length > 0 && (
        <div className={styles.tableScroll}>
          <table className={styles.table}>
            <caption className={styles.visuallyHidden}>{strings.apiKeysTitle}</caption>
            <thead>
              <tr>
                {[
                  strings.nameColumn,
                  strings.apiKeyColumn,
                  strings.scopesColumn,
                  strings.createdColumn,
                  strings.lastUsedColumn,
                  strings.expiresColumn,
                ].map((column) => (
                  <th key={column} className={styles.th} scope="col">
                    {column}
                  </th>
                ))}
                <th className={styles.th} scope="col">
                  <span className={styles.visuallyHidden}>{strings.actionsColumn}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <KeyRow
                  key={key.id}
                  apiKey={key}
                  expired={isExpired(key, now)}
                  confirming={panel.confirming === key.id}
                  disabled={panel.pending}
                  onAskDelete={() => panel.askDelete(key.id)}
                  onCancel={panel.cancelDelete}
                  onDelete={() => void panel.remove(key.id)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AccountPanel>
  );
}

function NewKey({ secret, onDismiss }: { secret: string; onDismiss: () => void }) {
  const strings = useStrings().account;
  const copy = useCopyButton({ text: secret });
  const labelId = useId();
  return (
    <div className={styles.notice} role="region" aria-labelledby={labelId}>
      <p id={labelId} className={styles.muted}>
        <strong>{strings.newApiKeyNotice}</strong>
      </p>
      <p className={styles.secret} data-testid="new-api-key" aria-label={strings.newApiKeyLabel}>
        {secret}
      </p>
      <div className={styles.row}>
        <button type="button" className={styles.button()} onClick={() => void copy.copy()}>
          {copy.state === 'copied' ? strings.copied : strings.copy}
        </button>
        <button type="button" className={styles.button({ tone: 'outline' })} onClick={onDismiss}>
          {strings.dismiss}
        </button>
      </div>
    </div>
  );
}

/** A scope the server lists, in the account strings' words (an unknown one as it is named). */
function scopeText(strings: ReturnType<typeof useStrings>['account'], scope: string): string {
  if (scope === 'services:run') return strings.scopeRun;
  if (scope === 'services:publish') return strings.scopePublish;
  return scope;
}

interface KeyRowProps {
  apiKey: ApiKey;
  expired: boolean;
  confirming: boolean;
  disabled: boolean;
  onAskDelete: () => void;
  onCancel: () => void;
  onDelete: () => void;
}

function KeyRow({ apiKey, expired, confirming, disabled, onAskDelete, onCancel, onDelete }: KeyRowProps) {
  const strings = useStrings().account;
  const cancelRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // Focus follows the confirmation: onto its Cancel when it opens, back to Delete when it closes.
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
    else if (wasConfirming.current) deleteRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  return (
    <tr data-expired={expired || undefined}>
      <th className={styles.td} scope="row">
        {apiKey.name}
      </th>
      <td className={styles.td}>
        <code>{apiKey.display_value}</code>
      </td>
      <td className={styles.td}>{apiKey.scopes.map((scope) => scopeText(strings, scope)).join(', ')}</td>
      <td className={styles.td}>{formatDate(apiKey.created_at)}</td>
      <td className={styles.td}>{apiKey.last_used_at ? formatDate(apiKey.last_used_at) : strings.neverUsed}</td>
      <td className={styles.td}>
        {formatDate(apiKey.expiration_date)}
        {expired && <> ({strings.expiredKey})</>}
      </td>
      <td className={styles.td}>
        {confirming ? (
          <div className={styles.stack} role="group" aria-label={formatString(strings.deleteApiKey, { key: apiKey.display_value })}>
            <span>{formatString(strings.confirmDeleteApiKey, { key: apiKey.display_value })}</span>
            <div className={styles.row}>
              <button type="button" className={styles.button({ tone: 'danger' })} onClick={onDelete} disabled={disabled}>
                {strings.delete}
              </button>
              <button ref={cancelRef} type="button" className={styles.button({ tone: 'outline' })} onClick={onCancel}>
                {strings.cancel}
              </button>
            </div>
          </div>
        ) : (
          <button
            ref={deleteRef}
            type="button"
            className={styles.button({ tone: 'danger' })}
            onClick={onAskDelete}
            aria-label={formatString(strings.deleteApiKey, { key: apiKey.display_value })}
          >
            {strings.delete}
          </button>
        )}
      </td>
    </tr>
  );
}
