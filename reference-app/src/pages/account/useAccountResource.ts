import { useCallback, useEffect, useState } from 'react';
import type { ApiResult } from '@limelight/widgets/api';
import { notify } from '@limelight/widgets/notifications';

/**
 * Loads one account resource on mount. A failure shows the given warning (product-rules §8: account
 * loads warn when the status is not 200) and leaves `data` null; `reload` fetches again.
 */
export function useAccountResource<T>(load: () => Promise<ApiResult<T>>, failureMessage: string) {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);

  const reload = useCallback(async () => {
    setLoading(true);
    const result = await load();
    setLoading(false);
    if (result.ok) setData(result.data);
    else notify.warning(failureMessage);
  }, [load, failureMessage]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { data, setData, loading, reload };
}
