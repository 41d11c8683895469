import { deploymentTimings, describeDeployment, failureOf, logLinesOf, type DeploymentReport } from './deploymentModel';
import { LogView } from './LogView';
import { useDeploymentReport } from './useDeploymentReport';
import * as styles from './publish.css';

// The live state of a saved container deployment (docs/publishing.md, "Lifecycle"), in the
// editor's container section and on /account/hosting: status and instances, the last cold start,
// queue and run times, a failure's reason in words, and the last log lines. Asked again every
// few seconds while the page is visible (useDeploymentReport).

/** What an operator does to attach a runner (the editor says it where no runner is attached). */
function RunnerOffHelp() {
  return (
    <p className={styles.hint} data-testid="runner-off">
      No container runner is attached to this server, so the deployment waits and runs are refused. Its operator turns one on by starting
      the server with <code>CONTAINER_RUNNER=docker</code> and <code>DOCKER_HOST</code> pointing at a Docker or Podman engine, e.g.{' '}
      <code>CONTAINER_RUNNER=docker DOCKER_HOST=unix:///run/podman/podman.sock npm start</code> (docs/publishing.md, “Running containers”).
    </p>
  );
}

export function DeploymentReportView({ report, name }: { report: DeploymentReport; name: string }) {
  const failure = failureOf(report);
  const timings = deploymentTimings(report);
  return (
    <div className={styles.deployment} data-testid="deployment" data-status={report.status}>
      {/* The status line alone is live: timings and logs change with every poll. */}
      <p role="status" className={styles.hint}>
        <strong>{describeDeployment(report)}</strong>
      </p>
      {failure ? (
        <p className={`${styles.message} ${styles.failure}`} data-testid="deployment-failure">
          {failure.reason}
        </p>
      ) : null}
      {report.status === 'waiting_for_runner' ? <RunnerOffHelp /> : null}
      {timings.length > 0 ? (
        <dl className={styles.timings} data-testid="deployment-timings">
          {timings.map((t) => (
            <div key={t.label} className={styles.timing}>
              <dt className={styles.timingLabel}>{t.label}</dt>
              <dd className={styles.timing}>{t.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {report.status !== 'waiting_for_runner' ? (
        <LogView label={`Logs of ${name}`} lines={logLinesOf(report)} empty="No log lines yet." />
      ) : null}
    </div>
  );
}

/** The deployment of a saved container service, live; nothing until the first answer. */
export function DeploymentStatus({ serviceId, name }: { serviceId: string; name: string }) {
  const report = useDeploymentReport(serviceId);
  return report ? <DeploymentReportView report={report} name={name} /> : null;
}
