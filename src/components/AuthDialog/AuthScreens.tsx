import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { useStrings } from '../../config/PlatformProvider';
import { formatString } from '../../config/strings';
import { formatAlert } from '../../auth/alerts';
import type { AuthDialogActorRef, AuthDialogSnapshot } from '../../auth/authDialogMachine';
import { SOCIAL_PROVIDERS } from '../../auth/socialProviders';
import type { PageState } from '../../auth/types';
import type { FieldName } from '../../auth/validation';
import * as styles from './AuthDialog.css';

const TITLE_KEYS = ['signUp', 'signIn', 'accountCreated', 'recovery', 'recoverySent', 'newPassword', 'resetSuccess'] as const;

/** A request is under way: forms and buttons wait. */
function isBusy(snapshot: AuthDialogSnapshot): boolean {
  return !(
    snapshot.matches({ screens: { signUp: 'idle' } }) ||
    snapshot.matches({ screens: { signIn: 'idle' } }) ||
    snapshot.matches({ screens: { accountCreated: 'idle' } }) ||
    snapshot.matches({ screens: { recovery: 'idle' } }) ||
    snapshot.matches({ screens: 'recoverySent' }) ||
    snapshot.matches({ screens: { newPassword: 'ready' } }) ||
    snapshot.matches({ screens: 'resetSuccess' })
  );
}

const isLeaving = (snapshot: AuthDialogSnapshot) =>
  snapshot.matches('registering') || snapshot.matches('finishing') || snapshot.status === 'done';

interface AuthScreensProps {
  actorRef: AuthDialogActorRef;
  /** Page mode titles the page (h1); the overlay titles its dialog (h2). */
  headingLevel: 1 | 2;
  titleId: string;
  /** Rendered beside the title (the overlay's close button). */
  headerEnd?: ReactNode;
}

/** The seven page_states of spec §4, rendered from narrow slices of the machine. */
export function AuthScreens({ actorRef, headingLevel, titleId, headerEnd }: AuthScreensProps) {
  const strings = useStrings().auth;
  const pageState = useSelector(actorRef, (s) => s.context.pageState);
  const leaving = useSelector(actorRef, isLeaving);
  const verifying = useSelector(actorRef, (s) => s.matches({ screens: { newPassword: 'verifying' } }));
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shown = useRef(pageState);

  // A new screen: move focus to its title so keyboard and screen-reader users start there.
  useEffect(() => {
    if (shown.current === pageState) return;
    shown.current = pageState;
    headingRef.current?.focus();
  }, [pageState]);

  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <div data-state={`page-state-${pageState}`} data-page-state={pageState}>
      <div className={styles.header}>
        <Heading id={titleId} ref={headingRef} tabIndex={-1} className={styles.title}>
          {strings.titles[TITLE_KEYS[pageState]]}
        </Heading>
        {headerEnd}
      </div>
      {leaving ? (
        <p role="status" className={styles.status}>
          {strings.labels.redirecting}
        </p>
      ) : (
        <>
          <AlertBox actorRef={actorRef} />
          {verifying ? (
            <p role="status" className={styles.status}>
              {strings.labels.working}
            </p>
          ) : (
            <Screen actorRef={actorRef} pageState={pageState} />
          )}
        </>
      )}
    </div>
  );
}

function Screen({ actorRef, pageState }: { actorRef: AuthDialogActorRef; pageState: PageState }) {
  switch (pageState) {
    case 0:
      return <CredentialsScreen actorRef={actorRef} kind="signUp" />;
    case 1:
      return <CredentialsScreen actorRef={actorRef} kind="signIn" />;
    case 2:
      return <AccountCreatedScreen actorRef={actorRef} />;
    case 3:
      return <RecoveryScreen actorRef={actorRef} />;
    case 4:
      return <RecoverySentScreen actorRef={actorRef} />;
    case 5:
      return <NewPasswordScreen actorRef={actorRef} />;
    case 6:
      return <ResetSuccessScreen actorRef={actorRef} />;
  }
}

function AlertBox({ actorRef }: { actorRef: AuthDialogActorRef }) {
  const strings = useStrings().auth;
  const alert = useSelector(actorRef, (s) => s.context.alert);
  const busy = useSelector(actorRef, isBusy);
  if (!alert) return null;
  return (
    <div role={alert.tone === 'error' ? 'alert' : 'status'} className={styles.alert({ tone: alert.tone })} data-state={alert.tone}>
      <div className={styles.alertBody}>
        <p className={styles.alertMessage}>{formatAlert(alert, strings)}</p>
        <button
          type="button"
          className={styles.dismiss}
          aria-label={strings.labels.dismissAlert}
          onClick={() => actorRef.send({ type: 'DISMISS_ALERT' })}
        >
          <CrossIcon />
        </button>
      </div>
      {alert.action === 'resend' && (
        <button type="button" className={styles.alertAction} disabled={busy} onClick={() => actorRef.send({ type: 'RESEND' })}>
          {strings.labels.resendVerification}
        </button>
      )}
    </div>
  );
}

function useSubmit(actorRef: AuthDialogActorRef) {
  return (event: FormEvent) => {
    event.preventDefault();
    actorRef.send({ type: 'SUBMIT' });
  };
}

interface FieldProps {
  actorRef: AuthDialogActorRef;
  name: FieldName;
  label: string;
  type: 'email' | 'password';
  autoComplete: string;
  disabled: boolean;
}

function Field({ actorRef, name, label, type, autoComplete, disabled }: FieldProps) {
  const strings = useStrings().auth;
  const id = useId();
  const value = useSelector(actorRef, (s) => s.context[name]);
  const error = useSelector(actorRef, (s) => s.context.fieldErrors[name]);
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        className={styles.input}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => actorRef.send({ type: 'CHANGE', field: name, value: event.target.value })}
      />
      {error && (
        <p id={errorId} className={styles.fieldError}>
          {strings.validation[error]}
        </p>
      )}
    </div>
  );
}

function CredentialsScreen({ actorRef, kind }: { actorRef: AuthDialogActorRef; kind: 'signUp' | 'signIn' }) {
  const strings = useStrings().auth;
  const busy = useSelector(actorRef, isBusy);
  const onSubmit = useSubmit(actorRef);
  const labels = strings.labels;
  return (
    <>
      <form className={styles.form} noValidate aria-busy={busy} onSubmit={onSubmit}>
        <Field actorRef={actorRef} name="email" label={labels.email} type="email" autoComplete="email" disabled={busy} />
        <Field
          actorRef={actorRef}
          name="password"
          label={labels.password}
          type="password"
          autoComplete={kind === 'signUp' ? 'new-password' : 'current-password'}
          disabled={busy}
        />
        {kind === 'signIn' && (
          <div className={styles.row}>
            <button type="button" className={styles.linkButton} disabled={busy} onClick={() => actorRef.send({ type: 'FORGOT_PASSWORD' })}>
              {labels.forgotPassword}
            </button>
          </div>
        )}
        <button type="submit" className={styles.button({ block: true })} disabled={busy}>
          {kind === 'signUp' ? labels.signUp : labels.signIn}
        </button>
      </form>
      <p className={styles.switchLine}>
        {kind === 'signUp' ? labels.haveAccount : labels.noAccount}{' '}
        <button
          type="button"
          className={styles.linkButton}
          disabled={busy}
          onClick={() => actorRef.send({ type: kind === 'signUp' ? 'SHOW_SIGN_IN' : 'SHOW_SIGN_UP' })}
        >
          {kind === 'signUp' ? labels.signIn : labels.signUp}
        </button>
      </p>
      <SocialButtons actorRef={actorRef} disabled={busy} />
    </>
  );
}

function SocialButtons({ actorRef, disabled }: { actorRef: AuthDialogActorRef; disabled: boolean }) {
  const strings = useStrings().auth;
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <p id={headingId} className={styles.divider}>
        {strings.labels.orContinueWith}
      </p>
      <ul className={styles.socialList}>
        {SOCIAL_PROVIDERS.map((provider) => (
          <li key={provider}>
            <button
              type="button"
              className={styles.button({ kind: 'secondary', block: true })}
              disabled={disabled}
              data-provider={provider}
              onClick={() => actorRef.send({ type: 'SOCIAL', provider })}
            >
              {formatString(strings.labels.continueWith, { provider: strings.providers[provider] })}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function BackToLogin({ actorRef, disabled }: { actorRef: AuthDialogActorRef; disabled?: boolean }) {
  const strings = useStrings().auth;
  return (
    <button
      type="button"
      className={styles.button({ kind: 'secondary' })}
      disabled={disabled}
      onClick={() => actorRef.send({ type: 'BACK_TO_LOGIN' })}
    >
      {strings.labels.backToLogin}
    </button>
  );
}

function AccountCreatedScreen({ actorRef }: { actorRef: AuthDialogActorRef }) {
  const strings = useStrings().auth;
  const sentTo = useSelector(actorRef, (s) => s.context.sentTo);
  const busy = useSelector(actorRef, isBusy);
  return (
    <>
      <p className={styles.text}>
        {sentTo ? formatString(strings.prompts.accountCreated, { email: sentTo }) : strings.prompts.accountCreatedNoEmail}
      </p>
      <div className={styles.row}>
        <BackToLogin actorRef={actorRef} disabled={busy} />
        {sentTo && (
          <button
            type="button"
            className={styles.button({ kind: 'secondary' })}
            disabled={busy}
            onClick={() => actorRef.send({ type: 'RESEND' })}
          >
            {strings.labels.resendVerification}
          </button>
        )}
      </div>
    </>
  );
}

function RecoveryScreen({ actorRef }: { actorRef: AuthDialogActorRef }) {
  const strings = useStrings().auth;
  const busy = useSelector(actorRef, isBusy);
  const onSubmit = useSubmit(actorRef);
  return (
    <>
      <p className={styles.text}>{strings.prompts.recovery}</p>
      <form className={styles.form} noValidate aria-busy={busy} onSubmit={onSubmit}>
        <Field actorRef={actorRef} name="email" label={strings.labels.email} type="email" autoComplete="email" disabled={busy} />
        <button type="submit" className={styles.button({ block: true })} disabled={busy}>
          {strings.labels.sendRecoveryEmail}
        </button>
      </form>
      <p className={styles.switchLine}>
        <button type="button" className={styles.linkButton} disabled={busy} onClick={() => actorRef.send({ type: 'BACK_TO_LOGIN' })}>
          {strings.labels.backToLogin}
        </button>
      </p>
    </>
  );
}

function RecoverySentScreen({ actorRef }: { actorRef: AuthDialogActorRef }) {
  const strings = useStrings().auth;
  const sentTo = useSelector(actorRef, (s) => s.context.sentTo);
  return (
    <>
      <p className={styles.text}>
        {sentTo ? formatString(strings.prompts.recoverySent, { email: sentTo }) : strings.prompts.recoverySentNoEmail}
      </p>
      <BackToLogin actorRef={actorRef} />
    </>
  );
}

function NewPasswordScreen({ actorRef }: { actorRef: AuthDialogActorRef }) {
  const strings = useStrings().auth;
  const busy = useSelector(actorRef, isBusy);
  const onSubmit = useSubmit(actorRef);
  return (
    <>
      <p className={styles.text}>{strings.prompts.newPassword}</p>
      <form className={styles.form} noValidate aria-busy={busy} onSubmit={onSubmit}>
        <Field
          actorRef={actorRef}
          name="newPassword"
          label={strings.labels.newPassword}
          type="password"
          autoComplete="new-password"
          disabled={busy}
        />
        <button type="submit" className={styles.button({ block: true })} disabled={busy}>
          {strings.labels.setNewPassword}
        </button>
      </form>
    </>
  );
}

function ResetSuccessScreen({ actorRef }: { actorRef: AuthDialogActorRef }) {
  const strings = useStrings().auth;
  return (
    <>
      <p className={styles.text}>{strings.prompts.resetSuccess}</p>
      <BackToLogin actorRef={actorRef} />
    </>
  );
}

export function CrossIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M3.5 3.5l9 9m0-9l-9 9" stroke="currentColor" strokeWidth="2" strokeLinecap="round" fill="none" />
    </svg>
  );
}
