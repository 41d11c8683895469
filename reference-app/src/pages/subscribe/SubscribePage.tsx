import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { usePlatformClients } from '@limelight/widgets';
import type { SubscriptionOption } from '@limelight/widgets/api';
import { notify } from '@limelight/widgets/notifications';
import { useStrings } from '@limelight/widgets/platform';
import { bundledSubscriptionOptions, canSubscribe, initialSelection } from './subscribeForm';
import * as styles from '../page.css';

export default function SubscribePage() {
  const [params] = useSearchParams();
  const { support } = usePlatformClients();
  const strings = useStrings();
  const [options, setOptions] = useState<SubscriptionOption[]>(bundledSubscriptionOptions);
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [selected, setSelected] = useState<number[]>(() => initialSelection(params.get('subscribe_to'), bundledSubscriptionOptions));
  const [status, setStatus] = useState<'idle' | 'sending' | 'done'>('idle');
  const [touched, setTouched] = useState(false);
  const emailId = useId();

  useEffect(() => {
    void support.subscriptionOptions().then((result) => {
      if (result.ok && result.data.length > 0) {
        setOptions(result.data);
        setSelected(initialSelection(params.get('subscribe_to'), result.data));
      }
    });
  }, [support, params]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!canSubscribe(email, selected)) return;
    setStatus('sending');
    const result = await support.subscribeNewsletter({ email: email.trim(), products: selected });
    if (result.ok) setStatus('done');
    else {
      setStatus('idle');
      notify.apiFailure(result, strings.notifications.status, { text: result.error });
    }
  };

  if (status === 'done') {
    return (
      <article className={styles.prose}>
        <h1>Thank you for subscribing!</h1>
        <p role="status">
          We sent a confirmation link to {email.trim()}: follow it to start receiving the topics you chose. You can unsubscribe at any time.
        </p>
      </article>
    );
  }

  const invalidEmail = touched && !canSubscribe(email, [0]);
  return (
    <article className={styles.prose}>
      <h1>Subscribe to our newsletter</h1>
      <form onSubmit={submit} noValidate>
        <div className={styles.field}>
          <label htmlFor={emailId}>E-mail</label>
          <input
            id={emailId}
            className={styles.input}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={invalidEmail}
            aria-describedby={invalidEmail ? `${emailId}-error` : undefined}
          />
          {invalidEmail && (
            <span id={`${emailId}-error`} className={styles.errorText}>
              E-mail must be valid
            </span>
          )}
        </div>
        <fieldset className={styles.field}>
          <legend>Interests</legend>
          {options.map((option) => (
            <label key={option.id}>
              <input
                type="checkbox"
                checked={selected.includes(option.id)}
                onChange={(e) => setSelected((s) => (e.target.checked ? [...s, option.id] : s.filter((id) => id !== option.id)))}
              />{' '}
              <strong>{option.display_value}</strong> <span className={styles.muted}>{option.description}</span>
            </label>
          ))}
          {touched && selected.length === 0 && <span className={styles.errorText}>Choose at least one topic.</span>}
        </fieldset>
        <button type="submit" className={styles.button()} disabled={status === 'sending'}>
          Subscribe
        </button>
      </form>
    </article>
  );
}
