import { useCallback } from 'react';
import { Link } from 'react-router';
import { useApiResource, usePlatformClients } from '@limelight/widgets';
import type { Job } from '@limelight/widgets/api';
import { notify } from '@limelight/widgets/notifications';
import { formatCredits } from '@limelight/widgets/run';
import { useStrings } from '@limelight/widgets/platform';
import * as page from '../page.css';
import * as styles from './account.css';

// The dashboard's latest runs: what ran, how it ended and what it cost, each linking back to the
// service's playground where it can be reopened or run again.

const RECENT_RUNS = 5;
const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const servicePath = (job: Job) => `/APIs/service/${job.service_id.split('/').map(encodeURIComponent).join('/')}`;

export function RecentRuns() {
  const { jobs } = usePlatformClients();
  const all = useStrings();
  const strings = all.account;
  // Statuses in words ('Finished'), as the playground says them, not the API's capitals.
  const statusText = all.runner.status;
  const load = useCallback(() => jobs.list({ limit: RECENT_RUNS }), [jobs]);
  const runs = useApiResource(load, { onError: () => notify.warning(strings.loadProblem) });
  const list = runs.data?.jobs ?? [];

  return (
    <section className={styles.panel} aria-labelledby="dashboard-runs" aria-busy={runs.loading}>
      <h2 id="dashboard-runs" className={styles.panelTitle}>
        Recent runs
      </h2>
      {runs.data && list.length === 0 && (
        <p className={page.muted}>
          No runs yet. <Link to="/APIs/Overview">Find a service to run</Link>
        </p>
      )}
      {list.length > 0 && (
        <table className={page.table} data-testid="recent-runs">
          <thead>
            <tr>
              <th scope="col">Service</th>
              <th scope="col">Status</th>
              <th scope="col">Cost</th>
              <th scope="col">Started</th>
            </tr>
          </thead>
          <tbody>
            {list.map((job) => (
              <tr key={job.job_id}>
                <td>
                  <Link className={styles.rowLink} to={servicePath(job)}>
                    {job.service_id} {job.endpoint}
                  </Link>
                </td>
                <td data-status={job.status}>{statusText[job.status]}</td>
                <td>{job.metrics.cost_credits === null ? '–' : `${formatCredits(job.metrics.cost_credits)} credits`}</td>
                <td>{timeFormat.format(new Date(job.created_at))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
