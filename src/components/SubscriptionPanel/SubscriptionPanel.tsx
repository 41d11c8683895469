import { useId } from 'react';
import { formatString } from '../../config/strings';
import { useStrings } from '../../config/PlatformProvider';
import type { PlanKey } from '../../api/types';
import { AccountPanel, formatDate, type AccountPanelBaseProps } from '../AccountPanel';
import * as styles from '../AccountPanel/AccountPanel.css';
import { availableActions, isUpgrade, planChangeTargets, statusKind, SUBSCRIBABLE_PLANS } from './subscriptionActions';
import { useSubscriptionPanel, type PendingConfirmation, type UseSubscriptionPanelOptions } from './useSubscriptionPanel';

/** Props of `SubscriptionPanel`. */
export interface SubscriptionPanelProps extends AccountPanelBaseProps, UseSubscriptionPanelOptions {}

/**
 * The signed-in user's subscription: plan and status (a subscription set to end states its end
 * date); subscribe, switch between Plus and Pro, cancel at period end, cancel now (each change
 * after a confirmation), reactivate. The status after each change is shown and announced.
 */
export function SubscriptionPanel({ headingLevel, className, ...options }: SubscriptionPanelProps) {
  const strings = useStrings().account;
  const panel = useSubscriptionPanel(options);
  const planId = useId();
  const sub = panel.subscription.data;
  const { actions, canSubscribe } = availableActions(sub);
  const questionId = useId();
  const planTitle = (key: PlanKey) => key.charAt(0).toUpperCase() + key.slice(1);
  const changeTargets = planChangeTargets(sub ?? null);
  const confirmQuestion = (pending: PendingConfirmation) => {
    if (pending.action !== 'change')
      return pending.action === 'cancel'
        ? strings.confirmCancelNow
        : formatString(strings.confirmCancelAtPeriodEnd, { date: formatDate(sub?.current_period_end) });
    const upgrade = sub ? isUpgrade(sub.plan_type, pending.plan) : true;
    return formatString(upgrade ? strings.confirmUpgrade : strings.confirmDowngrade, { plan: planTitle(pending.plan) });
  };
  const confirmLabel = (pending: PendingConfirmation) =>
    pending.action === 'change'
      ? formatString(strings.switchTo, { plan: planTitle(pending.plan) })
      : pending.action === 'cancel'
        ? strings.cancelNow
        : strings.cancelAtPeriodEnd;
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
          {sub.current_period_end && statusKind(sub) === 'active' && (
            <dd>{formatString(strings.renewsOn, { date: formatDate(sub.current_period_end) })}</dd>
          )}
        </dl>
      )}
      {sub && panel.confirming ? (
        <div className={styles.notice} role="group" aria-labelledby={questionId}>
          <p id={questionId} className={styles.muted}>
            {confirmQuestion(panel.confirming)}
          </p>
          <div className={styles.row}>
            <button
              type="button"
              className={styles.button({ tone: panel.confirming.action === 'change' ? 'primary' : 'danger' })}
              onClick={() => void panel.confirm()}
              disabled={panel.pending}
            >
              {confirmLabel(panel.confirming)}
            </button>
            <button type="button" className={styles.button({ tone: 'outline' })} onClick={panel.keep} autoFocus>
              {strings.keepPlan}
            </button>
          </div>
        </div>
      ) : (
        sub && (
          <div className={styles.row}>
            {changeTargets.map((key) => (
              <button
                key={key}
                type="button"
                className={styles.button()}
                onClick={() => panel.ask({ action: 'change', plan: key })}
                disabled={panel.pending}
              >
                {formatString(strings.switchTo, { plan: planTitle(key) })}
              </button>
            ))}
            {actions.includes('cancelAtPeriodEnd') && (
              <button
                type="button"
                className={styles.button({ tone: 'danger' })}
                onClick={() => panel.ask({ action: 'cancelAtPeriodEnd' })}
                disabled={panel.pending}
              >
                {strings.cancelAtPeriodEnd}
              </button>
            )}
            {actions.includes('cancel') && (
              <button type="button" className={styles.button({ tone: 'danger' })} onClick={panel.askCancel} disabled={panel.pending}>
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
