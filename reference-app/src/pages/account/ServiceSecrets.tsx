import { useCallback, useId, useState, type FormEvent } from 'react';
import { useApiResource } from '@limelight/widgets';
import { notify } from '@limelight/widgets/notifications';
import { ConfirmDialog } from '../publish/ConfirmDialog';
import { secretNameProblem, type ServiceSecretsClient } from './serviceSecrets';
import * as page from '../page.css';
import * as styles from './account.css';

// Account → Hosting, a container service opened: its secrets (docs/publishing.md, "Secrets"),
// the environment variables its containers start with. Listed by name with when each was set,
// each removable (behind a confirmation: the next deploy runs without it); a form sets one by
// name with a password field. A value is never shown: the platform does not answer it, and the
// field is emptied once saved. A change takes effect on the service's next deploy.

const when = (iso: string) => new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });

export function ServiceSecrets({ client, serviceId, name }: { client: ServiceSecretsClient; serviceId: string; name: string }) {
  const titleId = useId();
  const nameId = useId();
  const valueId = useId();
  const nameErrorId = useId();
  const valueErrorId = useId();
  const hintId = useId();
  const secrets = useApiResource(useCallback(() => client.list(serviceId), [client, serviceId]));
  const [secretName, setSecretName] = useState('');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<{ name?: string; value?: string; form?: string }>({});
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const list = secrets.data?.secrets;

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const nameProblem = secretNameProblem(secretName);
    const valueProblem = value === '' ? 'Give the secret’s value.' : null;
    if (nameProblem || valueProblem) {
      setErrors({ ...(nameProblem ? { name: nameProblem } : {}), ...(valueProblem ? { value: valueProblem } : {}) });
      // The first field with a problem takes the focus, so a keyboard or screen reader user lands on it.
      form.querySelector<HTMLInputElement>(`#${CSS.escape(nameProblem ? nameId : valueId)}`)?.focus();
      return;
    }
    setErrors({});
    setSaving(true);
    const result = await client.set(serviceId, secretName, value);
    setSaving(false);
    if (!result.ok) {
      setErrors({ form: result.error });
      return;
    }
    setValue('');
    setSecretName('');
    setStatus(`${result.data.name} is saved; it takes effect on the next deploy.`);
    notify.success(`${result.data.name} is saved; it takes effect on the next deploy.`);
    void secrets.reload();
  };

  const remove = async (secret: string) => {
    const result = await client.remove(serviceId, secret);
    if (!result.ok) return notify.warning(result.error);
    setStatus(`${secret} is removed; the next deploy runs without it.`);
    void secrets.reload();
  };

  return (
    <section aria-labelledby={titleId} aria-busy={secrets.loading}>
      <h3 id={titleId} className={styles.panelTitle}>
        Secrets
      </h3>
      <p className={page.muted} id={hintId}>
        Environment variables of {name}&apos;s containers. A value is stored sealed and never shown again; a change takes effect on the next
        deploy.
      </p>
      {!list && secrets.status === 'error' && <p role="alert">The secrets could not be loaded; reload the page to try again.</p>}
      {list && list.length === 0 && <p className={page.muted}>No secrets yet.</p>}
      {list && list.length > 0 && (
        <ul aria-label={`Secrets of ${name}`}>
          {list.map((secret) => (
            <li key={secret.name} className={styles.row}>
              <code>{secret.name}</code>
              <span className={page.muted}>
                set <time dateTime={secret.updated_at}>{when(secret.updated_at)}</time>
              </span>
              <button
                type="button"
                className={page.button({ tone: 'danger' })}
                aria-label={`Remove ${secret.name}`}
                onClick={() => setRemoving(secret.name)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form noValidate onSubmit={(event) => void save(event)} aria-label={`Set a secret of ${name}`}>
        <div className={styles.row}>
          <div className={page.field}>
            <label htmlFor={nameId}>Name</label>
            <input
              id={nameId}
              className={page.input}
              value={secretName}
              onChange={(event) => setSecretName(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="characters"
              placeholder="OPENAI_API_KEY"
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? nameErrorId : undefined}
            />
            {errors.name && (
              <span id={nameErrorId} className={page.errorText}>
                {errors.name}
              </span>
            )}
          </div>
          <div className={page.field}>
            <label htmlFor={valueId}>Value</label>
            <input
              id={valueId}
              className={page.input}
              type="password"
              value={value}
              onChange={(event) => setValue(event.target.value)}
              // Not the user's own password: no browser should offer or save one here.
              autoComplete="new-password"
              aria-invalid={errors.value ? true : undefined}
              aria-describedby={errors.value ? valueErrorId : hintId}
            />
            {errors.value && (
              <span id={valueErrorId} className={page.errorText}>
                {errors.value}
              </span>
            )}
          </div>
          <div className={page.field}>
            <button type="submit" className={page.button({ tone: 'primary' })} disabled={saving}>
              {saving ? 'Saving…' : 'Save secret'}
            </button>
          </div>
        </div>
        {errors.form && (
          <p role="alert" className={page.errorText}>
            {errors.form}
          </p>
        )}
      </form>
      <p role="status" aria-live="polite" className={page.muted}>
        {status}
      </p>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing ?? 'the secret'}?`}
        text={`${name}'s next deploy starts its containers without ${removing ?? 'it'}. Instances running now keep it until then.`}
        cancelLabel="Keep it"
        confirmLabel="Remove the secret"
        destructive
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const target = removing;
          setRemoving(null);
          if (target) void remove(target);
        }}
      />
    </section>
  );
}
