import { useCallback, useId, useState } from 'react';
import { Link } from 'react-router';
import { usePlatformClients } from '@limelight/widgets/api';
import { notify } from '@limelight/widgets/notifications';
import { useStrings } from '@limelight/widgets/platform';
import { useAccountResource } from './useAccountResource';
import * as page from '../page.css';
import * as styles from './account.css';

export default function BillingPage() {
  const { payment } = usePlatformClients();
  const strings = useStrings();
  const loadBalance = useCallback(() => payment.balance(), [payment]);
  const loadTransactions = useCallback(() => payment.transactions(), [payment]);
  const loadSubscription = useCallback(() => payment.subscription(), [payment]);
  const balance = useAccountResource(loadBalance, strings.account.loadProblem);
  const transactions = useAccountResource(loadTransactions, strings.account.loadProblem);
  const subscription = useAccountResource(loadSubscription, strings.account.loadProblem);
  const [quantity, setQuantity] = useState(1000);
  const quantityId = useId();

  const buy = async () => {
    if (!Number.isInteger(quantity) || quantity <= 0) return;
    const result = await payment.createCheckoutSession(quantity);
    if (result.ok) window.location.assign(result.data.url);
    else notify.apiFailure(result, strings.notifications.status, { text: result.error });
  };

  const changeSubscription = async (action: 'cancel' | 'cancelAtPeriodEnd' | 'reactivate') => {
    const call = {
      cancel: payment.cancelSubscription,
      cancelAtPeriodEnd: payment.cancelSubscriptionAtPeriodEnd,
      reactivate: payment.reactivateSubscription,
    }[action];
    const result = await call();
    if (result.ok) subscription.setData(result.data);
    else notify.apiFailure(result, strings.notifications.status, { text: result.error });
  };

  const sub = subscription.data;
  return (
    <div className={styles.page}>
      <h1>Billing</h1>
      <section className={styles.panel} aria-labelledby="balance-title">
        <h2 id="balance-title" className={styles.panelTitle}>
          Credits
        </h2>
        <p className={styles.big} data-testid="balance">
          {balance.data ? balance.data.balance.toLocaleString() : '–'}
        </p>
        <div className={styles.row}>
          <label className={page.field} htmlFor={quantityId}>
            Credits to buy
            <input
              id={quantityId}
              className={page.input}
              type="number"
              min={1}
              step={1}
              value={quantity}
              onChange={(e) => setQuantity(Number(e.target.value))}
            />
          </label>
          <button type="button" className={page.button()} onClick={buy}>
            Buy credits
          </button>
        </div>
      </section>
      <section className={styles.panel} aria-labelledby="subscription-title">
        <h2 id="subscription-title" className={styles.panelTitle}>
          Subscription
        </h2>
        {sub && (
          <>
            <p>
              Plan: <strong>{sub.plan_type}</strong> · Status: <strong>{sub.status}</strong>
              {sub.cancel_at_period_end && sub.current_period_end && <> · ends {new Date(sub.current_period_end).toLocaleDateString()}</>}
            </p>
            <div className={styles.row}>
              {sub.status === 'active' && !sub.cancel_at_period_end && (
                <button type="button" className={page.button({ tone: 'outline' })} onClick={() => changeSubscription('cancelAtPeriodEnd')}>
                  Cancel at period end
                </button>
              )}
              {sub.status === 'active' && (
                <button type="button" className={page.button({ tone: 'outline' })} onClick={() => changeSubscription('cancel')}>
                  Cancel now
                </button>
              )}
              {(sub.cancel_at_period_end || sub.status === 'canceled') && (
                <button type="button" className={page.button()} onClick={() => changeSubscription('reactivate')}>
                  Reactivate
                </button>
              )}
              <Link className={page.button({ tone: 'outline' })} to="/Pricing">
                Compare plans
              </Link>
            </div>
          </>
        )}
      </section>
      <section className={styles.panel} aria-labelledby="transactions-title">
        <h2 id="transactions-title" className={styles.panelTitle}>
          Transactions
        </h2>
        {transactions.data && (
          <table className={page.table}>
            <thead>
              <tr>
                <th className={page.th} scope="col">
                  Date
                </th>
                <th className={page.th} scope="col">
                  Description
                </th>
                <th className={page.th} scope="col">
                  Credits
                </th>
              </tr>
            </thead>
            <tbody>
              {transactions.data.map((t) => (
                <tr key={t.id}>
                  <td className={page.td}>{new Date(t.created_at).toLocaleString()}</td>
                  <td className={page.td}>{t.description}</td>
                  <td className={page.td}>{t.amount > 0 ? `+${t.amount}` : t.amount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
