import { useEffect, useState } from 'react';
import { usePlatformClients } from '@limelight/widgets';
import type { HostingInformation } from '@limelight/widgets/api';
import * as styles from './publish.css';

// The live state of a saved container deployment (docs/publishing.md, "Lifecycle"): status,
// running instances, the last cold start and the runner's message (a failure's reason and last
// log lines, in words). Refreshed every few seconds while the editor is open.

/** How often the editor asks again: a deployment changes status within seconds. */
export const DEPLOYMENT_REFRESH_MS = 3000;

export const DEPLOYMENT_STATUS_TEXT: Record<HostingInformation['status'], string> = {
  waiting_for_runner: 'Waiting for a runner',
  deploying: 'Deploying',
  running: 'Running',
  scaled_to_zero: 'Scaled to zero',
  failed: 'Failed',
  stopped: 'Stopped',
};

/** What the owner reads about a deployment, in one sentence (logic apart from rendering). */
export function describeDeployment(info: HostingInformation): string {
  const parts = [DEPLOYMENT_STATUS_TEXT[info.status]];
  if (info.status === 'running')
    parts.push(`${info.instances} of up to ${info.max_instances} instance${info.max_instances === 1 ? '' : 's'}`);
  if (info.last_cold_start_ms !== null) parts.push(`last cold start ${info.last_cold_start_ms} ms`);
  return parts.join(' · ');
}

export function DeploymentStatus({ serviceId }: { serviceId: string }) {
  const { modelManagement } = usePlatformClients();
  const [info, setInfo] = useState<HostingInformation | null>(null);

  useEffect(() => {
    let cancelled = false;
    const refresh = async () => {
      const result = await modelManagement.modelHostingInformation({ model_id: serviceId });
      if (!cancelled && result?.ok) setInfo(result.data);
    };
    void refresh();
    const timer = setInterval(() => void refresh(), DEPLOYMENT_REFRESH_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [modelManagement, serviceId]);

  if (!info) return null;
  return (
    <div
      className={`${styles.message} ${info.status === 'failed' ? styles.failure : styles.success}`}
      data-testid="deployment"
      role="status"
    >
      <strong>{describeDeployment(info)}</strong>
      {info.status === 'waiting_for_runner' && (
        <p>
          No container runner is attached to this server. Its operator turns one on with <code>CONTAINER_RUNNER=docker</code> and{' '}
          <code>DOCKER_HOST</code> (Docker or Podman; see docs/publishing.md, “Running containers”).
        </p>
      )}
      {info.message && info.status !== 'waiting_for_runner' && <pre className={styles.hint}>{info.message}</pre>}
    </div>
  );
}
