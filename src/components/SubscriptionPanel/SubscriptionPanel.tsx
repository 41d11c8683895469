import { useId } from 'react';
import { formatString } from '../../config/strings';
import { useStrings } from '../../config/PlatformProvider';
import type { PlanKey } from '../../api/types';
import { AccountPanel, formatDate, type AccountPanelBaseProps } from '../AccountPanel';
import * as styles from '../AccountPanel/AccountPanel.css';
import { availableActions, SUBSCRIBABLE_PLANS } from './subscriptionActions';
import { useSubscriptionPanel, type UseSubscriptionPanelOptions } from './useSubscriptionPanel';

/** Props of `SubscriptionPanel`. */
export interface SubscriptionPanelProps extends AccountPanelBaseProps, UseSubscriptionPanelOptions {}

/**
 * The signed-in user's subscription: plan and status (with the end date when it is set to end);
 * subscribe, cancel at period end, cancel now (after a confirmation), reactivate. The status
 * after each change is shown and announced.
 */
export function SubscriptionPanel({ headingLevel, className, ...options }: SubscriptionPanelProps) {
  const strings = useStrings().account;
  const panel = useSubscriptionPanel(options);
  const planId = useId();
  const sub = panel.subscription.data;
  const { actions, canSubscribe } = availableActions(sub);
  const planTitle = (key: PlanKey) => key.charAt(0).toUpperCase() + key.slice(1);
  return (
    <AccountPanel
      name="subscription"
      title={strings.subscriptionTitle}
      headingLevel={headingLevel}
      className={className}
      feedback={panel.feedback.feedback}
      onDismissFeedback={panel.feedback.clear}
      busy={panel.subscription.status === 'loading' || panel.pending}
    >
      {sub && (
        <dl className={styles.row} data-testid="subscription-status" data-status={sub.status}>
          <dt>{strings.plan}:</dt>
          <dd>
            <strong>{planTitle(sub.plan_type)}</strong>
          </dd>
          <dt>{strings.status}:</dt>
          <dd>
            <strong>{panel.statusText(sub)}</strong>
          </dd>
          {sub.current_period_end && sub.status === 'active' && (
            <dd>
              {formatString(sub.cancel_at_period_end ? strings.endsOn : strings.renewsOn, { date: formatDate(sub.current_period_end) })}
            </dd>
          )}
        </dl>
      )}
      {sub && panel.confirmingCancel ? (
        <div className={styles.notice} role="group" aria-label={strings.cancelNow}>
          <p className={styles.muted}>{strings.confirmCancelNow}</p>
          <div className={styles.row}>
            <button type="button" className={styles.button()} onClick={() => void panel.change('cancel')} disabled={panel.pending}>
              {strings.cancelNow}
            </button>
            <button type="button" className={styles.button({ tone: 'outline' })} onClick={panel.keep} autoFocus>
              {strings.cancel}
            </button>
          </div>
        </div>
      ) : (
        sub && (
          <div className={styles.row}>
            {actions.includes('cancelAtPeriodEnd') && (
              <button
                type="button"
                className={styles.button({ tone: 'outline' })}
                onClick={() => void panel.change('cancelAtPeriodEnd')}
                disabled={panel.pending}
              >
                {strings.cancelAtPeriodEnd}
              </button>
            )}
            {actions.includes('cancel') && (
              <button type="button" className={styles.button({ tone: 'outline' })} onClick={panel.askCancel} disabled={panel.pending}>
                {strings.cancelNow}
              </button>
            )}
            {actions.includes('reactivate') && (
              <button type="button" className={styles.button()} onClick={() => void panel.change('reactivate')} disabled={panel.pending}>
                {strings.reactivate}
              </button>
            )}
          </div>
        )
      )}
      {sub && canSubscribe && (
        <div className={styles.row}>
          <label className={styles.field} htmlFor={planId}>
            {strings.choosePlan}
            <select id={planId} className={styles.input} value={panel.plan} onChange={(e) => panel.setPlan(e.target.value as PlanKey)}>
              {SUBSCRIBABLE_PLANS.map((key) => (
                <option key={key} value={key}>
                  {planTitle(key)}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className={styles.button()} onClick={() => void panel.subscribe()} disabled={panel.pending}>
            {strings.subscribe}
          </button>
        </div>
      )}
    </AccountPanel>
  );
}
