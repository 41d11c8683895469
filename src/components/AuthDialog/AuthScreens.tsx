import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { usePlatform, useStrings } from '../../config/PlatformProvider';
import { formatString, type Strings } from '../../config/strings';
import { formatAlert } from '../../auth/alerts';
import { isBusy, screenOf, type AuthDialogActorRef, type AuthDialogSnapshot } from '../../auth/authDialogMachine';
import { pageStateOf, type AuthScreen } from '../../auth/screens';
import { fetchEnabledProviders, type SocialProvider } from '../../auth/socialProviders';
import type { FieldName } from '../../auth/validation';
import * as styles from './AuthDialog.css';
import { ProviderLogo } from './ProviderLogo';
import type { PROVIDER_MARKS } from './providerMarks';

type ProviderMarks = typeof PROVIDER_MARKS;

/** A button's classes: the base, its kind, full width when `block`. */
const buttonClass = (kind: 'primary' | 'secondary', block?: boolean) =>
  `${styles.button} ${styles.buttonKind[kind]}${block ? ` ${styles.block}` : ''}`;

const isLeaving = (snapshot: AuthDialogSnapshot) =>
  snapshot.matches('registering') || snapshot.matches('finishing') || snapshot.status === 'done';

/** Page mode signed in on the page its route leads to: nowhere to go (authDialogMachine `stayed`). */
const isSignedInHere = (snapshot: AuthDialogSnapshot) => snapshot.matches('stayed');

/** Between the password and the next screen: the assurance check (is a code owed?). */
const isChecking = (snapshot: AuthDialogSnapshot) =>
  snapshot.matches({ screens: { setPassword: 'verifying' } }) || snapshot.matches('assuring');

interface AuthScreensProps {
  actorRef: AuthDialogActorRef;
  /** Page mode titles the page (h1); the overlay titles its dialog (h2). */
  headingLevel: 1 | 2;
  titleId: string;
  /** Rendered beside the title (the overlay's close button). */
  headerEnd?: ReactNode;
}

type ScreenView = (props: { actorRef: AuthDialogActorRef }) => ReactNode;

/** The view of each screen of `AUTH_SCREENS`; its title is `strings.titles[screen]`. */
const SCREEN_VIEWS: Record<AuthScreen, ScreenView> = {
  signUp: ({ actorRef }) => <CredentialsScreen actorRef={actorRef} kind="signUp" />,
  signIn: ({ actorRef }) => <CredentialsScreen actorRef={actorRef} kind="signIn" />,
  accountCreated: AccountCreatedScreen,
  recover: oneFieldScreen((strings) => ({
    prompt: strings.prompts.recovery,
    field: { name: 'email', label: strings.labels.email, type: 'email', autoComplete: 'email' },
    submitLabel: strings.labels.sendRecoveryEmail,
    secondary: { label: strings.labels.backToLogin, event: { type: 'BACK_TO_LOGIN' } },
  })),
  recoverySent: RecoverySentScreen,
  setPassword: oneFieldScreen((strings) => ({
    prompt: strings.prompts.newPassword,
    field: { name: 'newPassword', label: strings.labels.newPassword, type: 'password', autoComplete: 'new-password' },
    submitLabel: strings.labels.setNewPassword,
  })),
  passwordReset: ResetSuccessScreen,
  mfaChallenge: oneFieldScreen((strings) => ({
    prompt: strings.prompts.mfaChallenge,
    field: { name: 'mfaCode', label: strings.labels.mfaCode, type: 'text', inputMode: 'numeric', autoComplete: 'one-time-code' },
    submitLabel: strings.labels.verifyCode,
    secondary: { label: strings.labels.cancelSignIn, event: { type: 'CANCEL' } },
  })),
};

/** The dialog's screens, rendered from narrow slices of the machine. */
export function AuthScreens({ actorRef, headingLevel, titleId, headerEnd }: AuthScreensProps) {
  const strings = useStrings().auth;
  const screen = useSelector(actorRef, screenOf);
  const leaving = useSelector(actorRef, isLeaving);
  const signedInHere = useSelector(actorRef, isSignedInHere);
  const checking = useSelector(actorRef, isChecking);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shown = useRef(screen);

  // A new screen: move focus to its title so keyboard and screen-reader users start there.
  useEffect(() => {
    if (shown.current === screen) return;
    shown.current = screen;
    headingRef.current?.focus();
  }, [screen]);

  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const View = SCREEN_VIEWS[screen];
  return (
    <div data-state={screen} data-screen={screen} data-page-state={pageStateOf(screen) ?? undefined}>
      <div className={styles.header}>
        <Heading id={titleId} ref={headingRef} tabIndex={-1} className={styles.title}>
          {strings.titles[screen]}
        </Heading>
        {headerEnd}
      </div>
      {signedInHere ? (
        <p role="status" className={styles.status}>
          {strings.labels.signedIn}
        </p>
      ) : leaving ? (
        <p role="status" className={styles.status}>
          {strings.labels.redirecting}
        </p>
      ) : (
        <>
          <AlertBox actorRef={actorRef} />
          {checking ? (
            <p role="status" className={styles.status}>
              {strings.labels.working}
            </p>
          ) : (
            <View actorRef={actorRef} />
          )}
        </>
      )}
    </div>
  );
}

function AlertBox({ actorRef }: { actorRef: AuthDialogActorRef }) {
  const strings = useStrings().auth;
  const alert = useSelector(actorRef, (s) => s.context.alert);
  const busy = useSelector(actorRef, isBusy);
  if (!alert) return null;
  return (
    <div
      role={alert.tone === 'error' ? 'alert' : 'status'}
      className={`${styles.alert} ${styles.alertTone[alert.tone]}`}
      data-state={alert.tone}
    >
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
  type: 'email' | 'password' | 'text';
  autoComplete: string;
  disabled: boolean;
  /** Virtual keyboard hint (the MFA code: digits). */
  inputMode?: 'numeric';
}

function Field({ actorRef, name, label, type, autoComplete, disabled, inputMode }: FieldProps) {
  const strings = useStrings().auth;
  const id = useId();
  const value = useSelector(actorRef, (s) => s.context[name]);
  const error = useSelector(actorRef, (s) => s.context.fieldErrors[name]);
  const errorId = `${id}-error`;
  const [shown, setShown] = useState(false);
  const input = (
    <input
      id={id}
      name={name}
      type={type === 'password' && shown ? 'text' : type}
      autoComplete={autoComplete}
      inputMode={inputMode}
      className={styles.input}
      value={value}
      disabled={disabled}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
      onChange={(event) => actorRef.send({ type: 'CHANGE', field: name, value: event.target.value })}
    />
  );
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {type === 'password' ? (
        <span className={styles.passwordRow}>
          {input}
          <button
            type="button"
            className={styles.linkButton}
            aria-pressed={shown}
            aria-controls={id}
            disabled={disabled}
            onClick={() => setShown((v) => !v)}
          >
            {strings.labels.showPassword}
          </button>
        </span>
      ) : (
        input
      )}
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
        <button type="submit" className={buttonClass('primary', true)} disabled={busy}>
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
  const { authUrl, authKey } = usePlatform();
  const headingId = useId();
  // Only the providers the auth server has turned on; nothing while it is asked. Their logos
  // load meanwhile (a lazy chunk); should that fail, the buttons come without them.
  const [{ providers, marks }, setOffer] = useState<{ providers: SocialProvider[]; marks?: ProviderMarks }>({ providers: [] });
  useEffect(() => {
    let live = true;
    void Promise.all([
      fetchEnabledProviders(authUrl, authKey),
      import('./providerMarks').then(
        (m) => m.PROVIDER_MARKS,
        () => undefined,
      ),
    ]).then(([enabled, loaded]) => {
      if (live) setOffer({ providers: enabled, marks: loaded });
    });
    return () => {
      live = false;
    };
  }, [authUrl, authKey]);
  if (providers.length === 0) return null;
  return (
    <section aria-labelledby={headingId}>
      <p id={headingId} className={styles.divider}>
        {strings.labels.orContinueWith}
      </p>
      <ul className={styles.socialList}>
        {providers.map((provider) => (
          <li key={provider}>
            <button
              type="button"
              className={buttonClass('secondary', true)}
              disabled={disabled}
              data-provider={provider}
              onClick={() => actorRef.send({ type: 'SOCIAL', provider })}
            >
              {marks && <ProviderLogo mark={marks[provider]} />}
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
    <button type="button" className={buttonClass('secondary')} disabled={disabled} onClick={() => actorRef.send({ type: 'BACK_TO_LOGIN' })}>
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
      {/* The code confirms the address it was sent to, so it is offered when that is known. */}
      {sentTo && (
        <OneFieldForm
          actorRef={actorRef}
          prompt={strings.prompts.emailCode}
          field={{ name: 'emailCode', label: strings.labels.emailCode, type: 'text', inputMode: 'numeric', autoComplete: 'one-time-code' }}
          submitLabel={strings.labels.confirmAccount}
        />
      )}
      <div className={styles.row}>
        <BackToLogin actorRef={actorRef} disabled={busy} />
        {sentTo && (
          <button type="button" className={buttonClass('secondary')} disabled={busy} onClick={() => actorRef.send({ type: 'RESEND' })}>
            {strings.labels.resendVerification}
          </button>
        )}
      </div>
    </>
  );
}

interface OneField {
  prompt: string;
  field: Omit<FieldProps, 'actorRef' | 'disabled'>;
  submitLabel: string;
  /** A link-style action under the form. */
  secondary?: { label: string; event: { type: 'BACK_TO_LOGIN' } | { type: 'CANCEL' } };
}

/** The view of a screen that is a prompt and a form of one field, described by `describe`. */
function oneFieldScreen(describe: (strings: Strings['auth']) => OneField): ScreenView {
  return function OneFieldView({ actorRef }) {
    return <OneFieldScreen actorRef={actorRef} {...describe(useStrings().auth)} />;
  };
}

/** A prompt and a form of one field with its submit button. */
function OneFieldForm({ actorRef, prompt, field, submitLabel }: Omit<OneField, 'secondary'> & { actorRef: AuthDialogActorRef }) {
  const busy = useSelector(actorRef, isBusy);
  const onSubmit = useSubmit(actorRef);
  return (
    <>
      <p className={styles.text}>{prompt}</p>
      <form className={styles.form} noValidate aria-busy={busy} onSubmit={onSubmit}>
        <Field actorRef={actorRef} disabled={busy} {...field} />
        <button type="submit" className={buttonClass('primary', true)} disabled={busy}>
          {submitLabel}
        </button>
      </form>
    </>
  );
}

function OneFieldScreen({ actorRef, secondary, ...form }: OneField & { actorRef: AuthDialogActorRef }) {
  const busy = useSelector(actorRef, isBusy);
  return (
    <>
      <OneFieldForm actorRef={actorRef} {...form} />
      {secondary && (
        <p className={styles.switchLine}>
          <button type="button" className={styles.linkButton} disabled={busy} onClick={() => actorRef.send(secondary.event)}>
            {secondary.label}
          </button>
        </p>
      )}
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
