import { useCallback } from 'react';
import { Link } from 'react-router';
import { useApiResource, usePlatformClients } from '@limelight/widgets';
import { useSession } from '@limelight/widgets/auth';
import { notify } from '@limelight/widgets/notifications';
import { useStrings } from '@limelight/widgets/platform';
import { CreditsPanel } from '@limelight/widgets/credits-panel';
import { formatMonth, UsageChart } from '@limelight/widgets/usage-chart';
import { RecentRuns } from './RecentRuns';
import * as page from '../page.css';
import * as styles from './account.css';

const numberFormat = new Intl.NumberFormat('en-US');
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

/**
 * The account dashboard (product-rules §2: where sign-up and sign-in lead): a greeting with the user's
 * e-mail, the credit balance (the library's CreditsPanel), this month's API calls, a summary of
 * the API keys, the latest runs and the usage chart. Each block loads on its own; a failed load shows
 * the product-rules §8 account warning and leaves the block empty.
 */
export default function DashboardPage() {
  const email = useSession((state) => state.session?.user.email ?? '');
  const { profile } = usePlatformClients();
  const strings = useStrings().account;

  const loadUsage = useCallback(() => profile.usageStatistics(), [profile]);
  const loadKeys = useCallback(() => profile.apiKeys(), [profile]);
  const loadProfile = useCallback(() => profile.profile(), [profile]);
  const usage = useApiResource(loadUsage, { onError: () => notify.warning(strings.loadProblem) });
  const keys = useApiResource(loadKeys, { onError: () => notify.warning(strings.loadProblem) });
  // Only the greeting's wording depends on it: a failed load keeps 'Welcome back' without a second warning.
  const newUser = useApiResource(loadProfile).data?.is_new_user === true;

  const months = usage.data?.monthly_api_calls ?? [];
  const thisMonth = months.length ? months[months.length - 1] : null;
  const now = Date.now();
  const activeKeys = (keys.data ?? []).filter((key) => new Date(key.expiration_date).getTime() > now);
  const nextExpiry = activeKeys.map((key) => key.expiration_date).sort((a, b) => new Date(a).getTime() - new Date(b).getTime())[0];

  return (
    <div className={styles.page}>
      {/* A first visit (terms not yet accepted, product-rules §3 is_new_user) is greeted, not welcomed back. */}
      <h1 className={styles.greeting}>
        {newUser ? 'Welcome' : 'Welcome back'}
        {email ? `, ${email}` : ''}
      </h1>

      <div className={page.grid}>
        <div>
          <CreditsPanel showBuy={false} />
          <p className={page.muted}>
            <Link to="/account/billing">Buy credits or change your plan</Link>
          </p>
        </div>

        <section className={styles.panel} aria-labelledby="dashboard-usage" aria-busy={usage.loading}>
          {/* The server counts every request an API key authenticates, status polls included
              (server/profile/usage.ts), not runs: the label says so (issue 50, item 7). */}
          <h2 id="dashboard-usage" className={styles.panelTitle}>
            API requests this month
          </h2>
          <p className={styles.big} data-testid="calls-this-month">
            {usage.data ? numberFormat.format(thisMonth?.calls ?? 0) : '–'}
          </p>
          <p className={page.muted} data-testid="calls-note">
            {thisMonth ? `In ${formatMonth(thisMonth.month, 'long')}: every` : 'Every'} request made with one of your API keys, status polls
            included; runs from this site are not counted.
          </p>
        </section>

        <section className={styles.panel} aria-labelledby="dashboard-keys" aria-busy={keys.loading}>
          <h2 id="dashboard-keys" className={styles.panelTitle}>
            API keys
          </h2>
          <p className={styles.big} data-testid="active-keys">
            {keys.data ? activeKeys.length : '–'}
          </p>
          <p className={page.muted}>
            {keys.data && activeKeys.length === 0 && 'No active key yet. '}
            {nextExpiry && `Next expiry ${formatDate(nextExpiry)}. `}
            <Link to="/account/api-keys">Manage API keys</Link>
          </p>
        </section>
      </div>

      <RecentRuns />

      <UsageChart />
    </div>
  );
}
