import { useStrings } from '../../config/PlatformProvider';
import { AccountPanel, Field, formatCredits, type AccountPanelBaseProps } from '../AccountPanel';
import * as styles from '../AccountPanel/AccountPanel.css';
import { useCreditsPanel, type UseCreditsPanelOptions } from './useCreditsPanel';

/** Props of `CreditsPanel`. */
export interface CreditsPanelProps extends AccountPanelBaseProps, UseCreditsPanelOptions {
  /**
   * Shows the form to buy credits.
   * @default true
   */
  showBuy?: boolean;
}

/** The signed-in user's credit balance, and buying credits through checkout. */
export function CreditsPanel({ headingLevel, className, showBuy = true, ...options }: CreditsPanelProps) {
  const strings = useStrings().account;
  const panel = useCreditsPanel(options);
  return (
    <AccountPanel
      name="credits"
      title={strings.creditsTitle}
      headingLevel={headingLevel}
      className={className}
      feedback={panel.feedback.feedback}
      onDismissFeedback={panel.feedback.clear}
      busy={panel.balance.status === 'loading' || panel.pending}
    >
      <p className={styles.muted}>{strings.creditsAvailable}</p>
      <p className={styles.big} data-testid="credit-balance">
        {panel.balance.data ? formatCredits(panel.balance.data.balance, { balance: true }) : '–'}
      </p>
      {panel.balance.data?.reserved ? (
        <p className={styles.muted} data-testid="credit-reserved">
          {strings.creditsReserved}: {formatCredits(panel.balance.data.reserved, { balance: true })}
        </p>
      ) : null}
      {showBuy && (
        <form className={styles.row} onSubmit={(e) => void panel.buy(e)} noValidate>
          <Field
            label={strings.creditsToBuy}
            inputMode="numeric"
            value={panel.quantity}
            onValueChange={panel.setQuantity}
            error={panel.error}
          />
          <button type="submit" className={styles.button()} disabled={panel.pending}>
            {strings.buyCredits}
          </button>
        </form>
      )}
      {showBuy && (
        <p className={styles.muted} data-testid="credit-price" aria-live="polite">
          {panel.price}
        </p>
      )}
    </AccountPanel>
  );
}
