import { useEffect, useState } from 'react';
import { usePlatformClients } from '@limelight/widgets';
import type { DeploymentReport } from './deploymentModel';

/** How often a visible page asks again: a deployment changes status within seconds. */
export const DEPLOYMENT_REFRESH_MS = 3000;

/**
 * A container deployment's live report (GET model_hosting_information), asked again every few
 * seconds while the page is visible: a hidden tab stops asking and asks at once when shown.
 * Null until the first answer (or for a service that is not the caller's).
 */
export function useDeploymentReport(serviceId: string | null): DeploymentReport | null {
  const { modelManagement } = usePlatformClients();
  const [report, setReport] = useState<DeploymentReport | null>(null);

  useEffect(() => {
    if (!serviceId) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const visible = () => typeof document === 'undefined' || document.visibilityState !== 'hidden';
    // One request at a time: a tab shown again while one is in flight does not start a second loop.
    let inFlight = false;
    const refresh = async () => {
      clearTimeout(timer);
      if (inFlight) return;
      inFlight = true;
      const result = await modelManagement.modelHostingInformation({ model_id: serviceId }).finally(() => (inFlight = false));
      if (cancelled) return;
      if (result?.ok) setReport(result.data);
      if (visible()) timer = setTimeout(() => void refresh(), DEPLOYMENT_REFRESH_MS);
    };
    const onVisibility = () => {
      if (visible()) void refresh();
      else clearTimeout(timer);
    };
    void refresh();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [modelManagement, serviceId]);

  return serviceId ? report : null;
}
