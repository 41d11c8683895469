import { useId } from 'react';
import type { Factor } from '@supabase/auth-js';
import { formatString } from '../../config/strings';
import { useStrings } from '../../config/PlatformProvider';
import { AccountPanel, Field, formatDate, type AccountPanelBaseProps } from '../AccountPanel';
import * as styles from '../AccountPanel/AccountPanel.css';
import * as own from './MfaPanel.css';
import { QrCode } from './QrCode';
import { useMfaPanel, type UseMfaPanelOptions } from './useMfaPanel';

/** Props of `MfaPanel`. */
export interface MfaPanelProps extends AccountPanelBaseProps, UseMfaPanelOptions {}

/**
 * Two-factor authentication with an authenticator app (TOTP): set one up from a QR code or its
 * secret and confirm it with a first code; list the factors; remove one. Once a factor is
 * verified, sign-in asks for its code after the password.
 */
export function MfaPanel({ headingLevel, className, ...options }: MfaPanelProps) {
  const strings = useStrings().account;
  const panel = useMfaPanel(options);
  const factors = panel.factors.data ?? [];
  const verified = factors.filter((f) => f.status === 'verified');
  const scanId = useId();
  return (
    <AccountPanel
      name="mfa"
      title={strings.mfaTitle}
      headingLevel={headingLevel}
      className={className}
      feedback={panel.feedback.feedback}
      onDismissFeedback={panel.feedback.clear}
      busy={panel.busy || panel.factors.status === 'loading'}
    >
      <p className={styles.muted}>{strings.mfaIntro}</p>
      {panel.factors.data && verified.length === 0 && !panel.pending && <p className={styles.muted}>{strings.mfaNone}</p>}
      {verified.length > 0 && (
        <ul className={styles.stack} aria-label={strings.mfaTitle}>
          {verified.map((factor) => (
            <FactorItem
              key={factor.id}
              factor={factor}
              confirming={panel.confirming === factor.id}
              disabled={panel.busy}
              onAsk={() => panel.askRemove(factor.id)}
              onCancel={panel.cancelRemove}
              onRemove={() => void panel.remove(factor.id)}
            />
          ))}
        </ul>
      )}
      {panel.pending ? (
        <form className={own.enrol} onSubmit={(e) => void panel.confirmEnrolment(e)} noValidate aria-describedby={scanId}>
          <QrCode text={panel.pending.uri} label={strings.mfaQrLabel} />
          <div className={styles.stack}>
            <p id={scanId} className={styles.muted}>
              {strings.mfaScan}
            </p>
            <p className={styles.muted}>{strings.mfaSecret}</p>
            <p className={styles.secret} data-testid="mfa-secret">
              {panel.pending.secret}
            </p>
            <Field
              label={strings.mfaCode}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={panel.code}
              onValueChange={panel.setCode}
              error={panel.codeError}
            />
            <div className={styles.row}>
              <button type="submit" className={styles.button()} disabled={panel.busy}>
                {strings.mfaConfirm}
              </button>
              <button type="button" className={styles.button({ tone: 'outline' })} onClick={() => void panel.cancelEnrolment()}>
                {strings.cancel}
              </button>
            </div>
          </div>
        </form>
      ) : (
        panel.factors.data && (
          <div className={styles.row}>
            <button type="button" className={styles.button()} onClick={() => void panel.startEnrolment()} disabled={panel.busy}>
              {strings.mfaEnrol}
            </button>
          </div>
        )
      )}
    </AccountPanel>
  );
}

interface FactorItemProps {
  factor: Factor;
  confirming: boolean;
  disabled: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onRemove: () => void;
}

function FactorItem({ factor, confirming, disabled, onAsk, onCancel, onRemove }: FactorItemProps) {
  const strings = useStrings().account;
  const name = factor.friendly_name || strings.mfaDefaultName;
  return (
    <li className={styles.row}>
      <span>
        <strong>{name}</strong> · {factor.factor_type.toUpperCase()} · {strings.mfaVerified} · {formatDate(factor.created_at)}
      </span>
      {confirming ? (
        <span className={styles.row} role="group" aria-label={formatString(strings.mfaRemove, { name })}>
          <span>{formatString(strings.mfaConfirmRemove, { name })}</span>
          <button type="button" className={styles.button({ tone: 'danger' })} onClick={onRemove} disabled={disabled}>
            {strings.delete}
          </button>
          <button type="button" className={styles.button({ tone: 'outline' })} onClick={onCancel} autoFocus>
            {strings.cancel}
          </button>
        </span>
      ) : (
        <button
          type="button"
          className={styles.button({ tone: 'danger' })}
          onClick={onAsk}
          aria-label={formatString(strings.mfaRemove, { name })}
        >
          {strings.delete}
        </button>
      )}
    </li>
  );
}
