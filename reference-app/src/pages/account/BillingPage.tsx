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

/** What the transactions list shows of runs (docs/jobs.md, metering): demo runs cost nothing, so they add no line. */
const TRANSACTIONS_NOTE =
  'A run is listed with the CPU seconds or GPU seconds it was billed for. Runs of demo services are free and add no transaction.';

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
      <p className={styles.moved} data-lime="transactions-note">
        {TRANSACTIONS_NOTE}
      </p>
      <ReceiptsList refreshKey={settled + changes} />
    </div>
  );
}
