import { useCallback, useRef } from 'react';
import { Link } from 'react-router';
import { useApiResource, usePlatformClients } from '@limelight/widgets';
import { FINAL_JOB_STATUSES, type Job } from '@limelight/widgets/api';
import { useSession } from '@limelight/widgets/auth';
import { formatCredits } from '@limelight/widgets/run';
import * as styles from './catalogue.css';

/**
 * The signed-in visitor's credit balance on every service page (issue 39, item 4), so the price
 * of a run is read against what they have. Loaded after hydration (the server renders pages
 * signed out), and again when a run of theirs ends (`onJobChange`), since runs spend credits.
 */
export function useSignedInBalance() {
  const signedIn = useSession((state) => state.session !== null);
  const { payment } = usePlatformClients();
  const load = useCallback(() => payment.balance(), [payment]);
  const balance = useApiResource(load, { enabled: signedIn });
  const finished = useRef(new Set<string>());
  const { reload } = balance;
  const onJobChange = useCallback(
    (job: Job) => {
      if (!signedIn || !FINAL_JOB_STATUSES.includes(job.status) || finished.current.has(job.job_id)) return;
      finished.current.add(job.job_id);
      void reload();
    },
    [signedIn, reload],
  );
  return { balance: signedIn ? balance.data : null, onJobChange };
}

/** 'Your balance: 500 credits · Buy credits', or nothing while signed out or loading. */
export function BalanceLine({ balance }: { balance: { balance: number; reserved?: number } | null }) {
  if (!balance) return null;
  return (
    <p className={styles.balanceLine} data-testid="service-balance">
      Your balance: <strong>{formatCredits(balance.balance, { balance: true })} credits</strong>
      {balance.reserved ? ` (${formatCredits(balance.reserved, { balance: true })} held by running jobs)` : ''} ·{' '}
      <Link className={styles.link} to="/account/billing">
        Buy credits
      </Link>
    </p>
  );
}
