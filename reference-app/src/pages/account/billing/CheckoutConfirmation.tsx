import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePlatformClients } from '@limelight/widgets';
import type { CheckoutDetail } from '@limelight/widgets/api';
import * as page from '../../page.css';
import * as styles from '../account.css';
import * as billing from './billing.css';
import { confirmationOf, type Confirmation } from './billingText';

/** How often and how long an open checkout is read again (a provider's webhook on its way). */
const POLL_MS = 1500;
const POLLS = 8;

const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/**
 * After returning from checkout (the return URL carries `checkout_id`): what was bought, for how
 * much, and the new balance or plan, read from the server, never from the URL alone.
 */
export function CheckoutConfirmation({ onSettled }: { onSettled?: () => void }) {
  const { payment } = usePlatformClients();
  const [params, setParams] = useSearchParams();
  const checkoutId = params.get('checkout_id');
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);

  const describe = useCallback(
    async (checkout: CheckoutDetail) => {
      if (checkout.status !== 'complete') return confirmationOf(checkout, { formatDate });
      if (checkout.purpose === 'credits') {
        const balance = await payment.balance();
        return confirmationOf(checkout, { balance: balance.ok ? balance.data.balance : null, formatDate });
      }
      const subscription = await payment.subscription();
      return confirmationOf(checkout, { periodEnd: subscription.ok ? subscription.data.current_period_end : null, formatDate });
    },
    [payment],
  );

  useEffect(() => {
    if (!checkoutId) return;
    let live = true;
    void (async () => {
      for (let poll = 0; poll < POLLS && live; poll++) {
        const result = await payment.checkout(checkoutId);
        if (!live || !result.ok) return;
        const next = await describe(result.data);
        if (!live) return;
        setConfirmation(next);
        if (result.data.status !== 'open') {
          if (result.data.status === 'complete') onSettled?.();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    })();
    return () => {
      live = false;
    };
  }, [checkoutId, payment, describe, onSettled]);

  const dismiss = () => {
    setConfirmation(null);
    const next = new URLSearchParams(params);
    for (const key of ['checkout_id', 'checkout']) next.delete(key);
    setParams(next, { replace: true });
  };

  if (!checkoutId || !confirmation) return null;
  return (
    <section
      className={[styles.panel, billing.confirmation].join(' ')}
      aria-labelledby="checkout-confirmation"
      data-testid="checkout-confirmation"
      data-tone={confirmation.tone}
    >
      <div role="status">
        <h2 id="checkout-confirmation" className={styles.panelTitle}>
          {confirmation.title}
        </h2>
        <p>{confirmation.detail}</p>
      </div>
      <button type="button" className={page.button({ tone: 'outline' })} onClick={dismiss}>
        Dismiss
      </button>
    </section>
  );
}
