import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from '../../api/result';

export type ResourceStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface AccountResource<T> {
  data: T | null;
  status: ResourceStatus;
  /** Replaces the data (after an action returned the new state). */
  setData: (data: T) => void;
  /** Fetches again; resolves to whether it worked. */
  reload: () => Promise<boolean>;
}

/**
 * Loads one account resource while `enabled` (signed in). A failure sets status 'error' and
 * calls `onError` (the panels show product-rules §8's account warning), keeping the last data. Signing
 * out clears the data, so the next user never sees the previous one's.
 */
export function useAccountResource<T>(
  load: () => Promise<ApiResult<T>>,
  { enabled, onError }: { enabled: boolean; onError?: () => void },
): AccountResource<T> {
  const [data, setDataState] = useState<T | null>(null);
  const [status, setStatus] = useState<ResourceStatus>('idle');
  const generation = useRef(0);
  const onErrorRef = useRef(onError);
  useEffect(() => {
    onErrorRef.current = onError;
  }, [onError]);

  const reload = useCallback(async () => {
    const run = ++generation.current;
    setStatus('loading');
    const result = await load();
    // A newer load (or a sign-out) supersedes this one.
    if (run !== generation.current) return false;
    if (result.ok) {
      setDataState(result.data);
      setStatus('ready');
      return true;
    }
    setStatus('error');
    onErrorRef.current?.();
    return false;
  }, [load]);

  useEffect(() => {
    if (enabled) {
      void reload();
      return;
    }
    generation.current++;
    setDataState(null);
    setStatus('idle');
  }, [enabled, reload]);

  const setData = useCallback((next: T) => {
    generation.current++;
    setDataState(next);
    setStatus('ready');
  }, []);

  return { data, status, setData, reload };
}
