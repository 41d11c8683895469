import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from '../api/result';

/** Where an `ApiResource` is: not asked for yet, on its way, loaded, or failed. */
export type ResourceStatus = 'idle' | 'loading' | 'ready' | 'error';

/** One API resource held by `useApiResource`. */
export interface ApiResource<T> {
  /** The last data loaded (kept through a failed reload); null before the first load. */
  data: T | null;
  status: ResourceStatus;
  /** True until the first answer while enabled, and during every reload (for `aria-busy`). */
  loading: boolean;
  /** Replaces the data (after an action returned the new state), or updates it from the current. */
  setData: (next: T | null | ((current: T | null) => T | null)) => void;
  /** Fetches again; resolves to whether it worked. */
  reload: () => Promise<boolean>;
}

/** Options of `useApiResource`: whether to load, and what to do with a failure. */
export interface UseApiResourceOptions {
  /** Loads only while true (e.g. signed in); turning it off clears the data. @default true */
  enabled?: boolean;
  /** Called when a load fails (e.g. to show product-rules §8's warning). */
  onError?: () => void;
}

/**
 * Loads one resource with a client call (`() => clients.profile.apiKeys()`) while `enabled`. A
 * failure sets status 'error' and calls `onError`, keeping the last data. Disabling (signing
 * out) clears the data, so the next user never sees the previous one's. A newer load supersedes
 * an older one still on its way. `load` should be memoised: a new function loads again.
 */
export function useApiResource<T>(
  load: () => Promise<ApiResult<T>>,
  { enabled = true, onError }: UseApiResourceOptions = {},
): ApiResource<T> {
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

  const setData = useCallback((next: T | null | ((current: T | null) => T | null)) => {
    generation.current++;
    setDataState(next as T | null);
    setStatus('ready');
  }, []);

  const loading = status === 'loading' || (enabled && status === 'idle');
  return { data, status, loading, setData, reload };
}
