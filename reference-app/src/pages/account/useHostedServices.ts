import { useCallback, useState } from 'react';
import { useApiResource, usePlatformClients } from '@limelight/widgets';
import type { ManagedService } from '@limelight/widgets/api';
import { useCatalogue } from '@limelight/widgets/catalogue';
import { notify } from '@limelight/widgets/notifications';
import { useStrings } from '@limelight/widgets/platform';

/**
 * The signed-in user's services (GET /v1/model_management/services, newest first) and the
 * hosting page's actions: pause or resume (a paused service refuses runs) and delete (the page
 * and runs stop; run history and ledger rows stay). Each change also refreshes the catalogue the
 * header search reads, so it shows at once.
 */
export function useHostedServices() {
  const { services } = usePlatformClients();
  const catalogue = useCatalogue();
  const strings = useStrings().account;
  const list = useApiResource(
    useCallback(() => services.list(), [services]),
    { onError: () => notify.warning(strings.loadProblem) },
  );
  const [pending, setPending] = useState<string | null>(null);

  const replace = (next: ManagedService) => list.setData((all) => all?.map((s) => (s.id === next.id ? next : s)) ?? null);

  const setPaused = async (service: ManagedService, paused: boolean) => {
    setPending(service.id);
    const result = await services.update(service.id, { status: paused ? 'paused' : 'active' });
    setPending(null);
    if (!result.ok) return notify.warning(result.error);
    replace(result.data);
    notify.success(
      paused ? `${service.display_name} is paused: runs are refused until you resume it.` : `${service.display_name} runs again.`,
    );
  };

  const remove = async (service: ManagedService) => {
    setPending(service.id);
    const result = await services.remove(service.id);
    setPending(null);
    if (!result.ok) return notify.warning(result.error);
    list.setData((all) => all?.filter((s) => s.id !== service.id) ?? null);
    void catalogue.refresh().catch(() => {});
    notify.success(`${service.display_name} is deleted.`);
  };

  return { services: list.data, loading: list.loading, pending, setPaused, remove };
}
