import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { CreditsPanel } from '@limelight/widgets/credits-panel';
import { SubscriptionPanel } from '@limelight/widgets/subscription-panel';
import { TransactionsTable } from '@limelight/widgets/transactions-table';
import { UsageChart } from '@limelight/widgets/usage-chart';
import * as page from '../page.css';
import * as styles from './account.css';
import { CheckoutConfirmation } from './billing/CheckoutConfirmation';
import { ReceiptsList } from './billing/ReceiptsList';

const BALANCE_SERIES = ['balance'] as const;

/**
 * Billing, like a customer portal (docs/payments.md): the confirmation after paying, credits, the
 * subscription (plan changes, confirmed cancels), the balance over time, transactions, receipts.
 */
export default function BillingPage() {
  // A payment confirmed on this page remounts the panels so they show the new balance and plan.
  const [settled, setSettled] = useState(0);
  const onSettled = useCallback(() => setSettled((n) => n + 1), []);
  // A plan change or cancel adds a receipt (or may): the list reloads.
  const [changes, setChanges] = useState(0);
  const onSubscriptionChange = useCallback(() => setChanges((n) => n + 1), []);
  return (
    <div className={styles.page}>
      <h1>Billing</h1>
      <CheckoutConfirmation onSettled={onSettled} />
      <div className={page.grid} key={settled}>
        <CreditsPanel />
        <SubscriptionPanel onChange={onSubscriptionChange} />
      </div>
      <p>
        <Link className={page.button({ tone: 'outline' })} to="/Pricing">
          Compare plans
        </Link>
      </p>
      <UsageChart series={BALANCE_SERIES} title="Credits over time" />
      <TransactionsTable />
      <ReceiptsList refreshKey={settled + changes} />
    </div>
  );
}
