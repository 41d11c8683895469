import { useState } from 'react';
import { Link } from 'react-router';
import { useApiClient } from '@limelight/widgets';
import type { ManagedService } from '@limelight/widgets/api';
import { servicePath } from '@limelight/widgets/catalogue';
import { formatCredits } from '@limelight/widgets/run';
import { visuallyHidden } from '@limelight/widgets/theme/a11y.css';
import { ConfirmDialog } from '../publish/ConfirmDialog';
import { DEPLOYMENT_STATUS_TEXT, ownUrlHealthText } from '../publish/deploymentModel';
import { DeploymentReportView } from '../publish/DeploymentStatus';
import { useDeploymentReport } from '../publish/useDeploymentReport';
import { createRegistryImagesClient } from './registryImages';
import { RegistryImagesPanel } from './RegistryImagesPanel';
import { createServiceVersionsClient } from './serviceVersions';
import { ServiceVersions } from './ServiceVersions';
import { createServiceSecretsClient } from './serviceSecrets';
import { ServiceSecrets } from './ServiceSecrets';
import { useHostedServices } from './useHostedServices';
import * as page from '../page.css';
import * as styles from './account.css';

// /account/hosting (docs/publishing.md): the services the user publishes, with what each earns
// and, for container services, the deployment's live state; then the user's images in the
// platform's registry (RegistryImagesPanel).

const RUNTIME_TEXT = {
  'local-demo': 'Platform demo',
  http: 'Own URL',
  container: 'Container',
} as const;

/**
 * A container service's runtime cell: the deployment's live status in a line and, opened, its
 * instances, timings, failure reason and logs (DeploymentStatus.tsx; none without a runner), then
 * its versions with their rollback (ServiceVersions.tsx, read once opened) and its secrets by
 * name (ServiceSecrets.tsx).
 */
function ContainerRuntime({ service, gpu }: { service: ManagedService; gpu: string }) {
  const report = useDeploymentReport(service.id);
  const versions = useApiClient(createServiceVersionsClient);
  const secrets = useApiClient(createServiceSecretsClient);
  const [open, setOpen] = useState(false);
  const status = report?.status ?? (service.runtime.type === 'container' ? service.runtime.deployment_status : 'waiting_for_runner');
  const line = `Container on ${gpu} · ${DEPLOYMENT_STATUS_TEXT[status].toLowerCase()}${
    report && report.status === 'running' ? ` · ${report.instances} running` : ''
  }`;
  return (
    <details className={styles.deploymentDetails} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{line}</summary>
      {report && report.status !== 'waiting_for_runner' && <DeploymentReportView report={report} name={service.display_name} />}
      {open && <ServiceVersions client={versions} serviceId={service.id} name={service.display_name} />}
      {open && <ServiceSecrets client={secrets} serviceId={service.id} name={service.display_name} />}
    </details>
  );
}

function RuntimeCell({ service }: { service: ManagedService }) {
  const runtime = service.runtime;
  if (runtime.type === 'container') return <ContainerRuntime service={service} gpu={runtime.gpu} />;
  if (runtime.type === 'http') return <>{ownUrlHealthText(service.health)}</>;
  return <>{RUNTIME_TEXT[runtime.type]}</>;
}

function ServiceRow({
  service,
  busy,
  onPause,
  onDelete,
}: {
  service: ManagedService;
  busy: boolean;
  onPause: (paused: boolean) => void;
  onDelete: () => void;
}) {
  const paused = service.status === 'paused';
  const name = service.display_name;
  return (
    <tr>
      <th className={`${page.td} ${styles.rowHeader}`} scope="row">
        <Link to={`/APIs/service/${servicePath(service)}`}>{name}</Link>
      </th>
      <td className={page.td}>{service.visibility === 'public' ? 'Public' : 'Private'}</td>
      <td className={page.td}>
        <RuntimeCell service={service} />
      </td>
      <td className={page.td}>{paused ? 'Paused' : 'Active'}</td>
      <td className={page.td}>{service.n_usages.toLocaleString('en')}</td>
      <td className={page.td}>{formatCredits(service.earnings_credits)} credits</td>
      <td className={page.td}>
        <div className={styles.actions}>
          <Link
            className={page.button({ tone: 'outline' })}
            to={`/APIs/edit/${encodeURIComponent(service.id)}`}
            aria-label={`Edit ${name}`}
          >
            Edit
          </Link>
          <button
            type="button"
            className={page.button({ tone: 'outline' })}
            disabled={busy}
            onClick={() => onPause(!paused)}
            aria-label={`${paused ? 'Resume' : 'Pause'} ${name}`}
          >
            {paused ? 'Resume' : 'Pause'}
          </button>
          <button
            type="button"
            className={page.button({ tone: 'danger' })}
            disabled={busy}
            onClick={onDelete}
            aria-label={`Delete ${name}`}
          >
            Delete
          </button>
        </div>
      </td>
    </tr>
  );
}

export default function HostedServicesPage() {
  const hosted = useHostedServices();
  const registryImages = useApiClient(createRegistryImagesClient);
  const [deleting, setDeleting] = useState<ManagedService | null>(null);
  const list = hosted.services;
  return (
    <div className={styles.page}>
      <div className={styles.titleRow}>
        <h1>Hosting</h1>
        <Link className={page.button()} to="/APIs/edit/new">
          New service
        </Link>
      </div>
      <section className={styles.panel} aria-labelledby="own-title">
        <h2 id="own-title" className={styles.panelTitle}>
          Your services
        </h2>
        {hosted.loading && !list && <p role="status">Loading your services…</p>}
        {list && list.length === 0 && (
          <p className={page.muted}>
            You publish no services yet. Create one with New service, or <Link to="/hosting">read how hosting works</Link>.
          </p>
        )}
        {list && list.length > 0 && (
          <div className={styles.tableScroll}>
            <table className={page.table}>
              <thead>
                <tr>
                  {['Service', 'Visibility', 'Runtime', 'Status', 'Runs', 'Earnings'].map((h) => (
                    <th key={h} className={page.th} scope="col">
                      {h}
                    </th>
                  ))}
                  <th className={page.th} scope="col">
                    <span className={visuallyHidden}>Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((service) => (
                  <ServiceRow
                    key={service.id}
                    service={service}
                    busy={hosted.pending === service.id}
                    onPause={(paused) => void hosted.setPaused(service, paused)}
                    onDelete={() => setDeleting(service)}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <RegistryImagesPanel client={registryImages} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.display_name ?? 'the service'}?`}
        text="Its page disappears from the catalogue and runs stop at once. Its run history and earnings stay in your account. This cannot be undone."
        cancelLabel="Keep it"
        confirmLabel="Delete the service"
        destructive
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const service = deleting;
          setDeleting(null);
          if (service) void hosted.remove(service);
        }}
      />
    </div>
  );
}
