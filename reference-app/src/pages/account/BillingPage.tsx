import { Link } from 'react-router';
import { CreditsPanel } from '@limelight/widgets/credits-panel';
import { SubscriptionPanel } from '@limelight/widgets/subscription-panel';
import { TransactionsTable } from '@limelight/widgets/transactions-table';
import { UsageChart } from '@limelight/widgets/usage-chart';
import * as page from '../page.css';
import * as styles from './account.css';

const BALANCE_SERIES = ['balance'] as const;

/** Billing: credits, the subscription, the balance over time and the transactions. */
export default function BillingPage() {
  return (
    <div className={styles.page}>
      <h1>Billing</h1>
      <div className={page.grid}>
        <CreditsPanel />
        <SubscriptionPanel />
      </div>
      <p>
        <Link className={page.button({ tone: 'outline' })} to="/Pricing">
          Compare plans
        </Link>
      </p>
      <UsageChart series={BALANCE_SERIES} title="Credits over time" />
      <TransactionsTable />
    </div>
  );
}
