import { useCallback, useState } from 'react';
import { API_KEY_DEFAULT_LIFETIME_DAYS } from '../../api/profile';
import type { ApiKey, CreatedApiKey } from '../../api/types';
import { useStrings } from '../../config/PlatformProvider';
import { useAccountClients, useApiResource, useFeedback, useSignInState } from '../AccountPanel';

/** The longest name the server takes for a key (profile/apiKeys.ts MAX_API_KEY_NAME_LENGTH). */
export const API_KEY_NAME_MAX = 60;

/** Lifetimes offered, in days; spec: 183 by default. */
export const API_KEY_LIFETIMES = [30, 90, API_KEY_DEFAULT_LIFETIME_DAYS, 365] as const;

/** Whether a key has expired at `now` (ms). */
export function isExpired(key: Pick<ApiKey, 'expiration_date'>, now: number): boolean {
  return new Date(key.expiration_date).getTime() <= now;
}

/** Keys soonest to expire first; expired ones last. */
export function sortKeys(keys: readonly ApiKey[], now: number): ApiKey[] {
  return [...keys].sort((a, b) => {
    const ea = isExpired(a, now);
    const eb = isExpired(b, now);
    if (ea !== eb) return ea ? 1 : -1;
    return new Date(a.expiration_date).getTime() - new Date(b.expiration_date).getTime();
  });
}

export interface UseApiKeysPanelOptions {
  /** Called with the new key (secret included) right after it was created. */
  onCreate?: (key: CreatedApiKey) => void;
  /** Called with the id of a key after it was deleted. */
  onDelete?: (id: string) => void;
}

/**
 * API keys (product-rules §2 account, §9: 183 days by default): list, create (the secret is shown once),
 * delete after a confirmation. Headless: the panel renders what this returns.
 */
export function useApiKeysPanel({ onCreate, onDelete }: UseApiKeysPanelOptions = {}) {
  const { profile } = useAccountClients();
  const strings = useStrings().account;
  const feedback = useFeedback();
  const signIn = useSignInState();
  const load = useCallback(() => profile.apiKeys(), [profile]);
  const warnLoad = useCallback(() => feedback.show('warning', strings.loadProblem), [feedback, strings.loadProblem]);
  const keys = useApiResource(load, { enabled: signIn === 'signed-in', onError: warnLoad });
  const [lifetime, setLifetime] = useState<number>(API_KEY_DEFAULT_LIFETIME_DAYS);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const create = async () => {
    setPending(true);
    // No name: the server calls it 'API key'.
    const result = await profile.createApiKey(lifetime, name.trim() || undefined);
    setPending(false);
    if (!result.ok) return feedback.show('warning', strings.createKeyProblem);
    feedback.clear();
    setName('');
    setCreated(result.data);
    onCreate?.(result.data);
    await keys.reload();
  };

  const remove = async (id: string) => {
    setPending(true);
    const result = await profile.deleteApiKey(id);
    setPending(false);
    setConfirming(null);
    if (!result.ok) return feedback.show('warning', strings.deleteKeyProblem);
    if (created?.id === id) setCreated(null);
    feedback.show('success', strings.apiKeyDeleted, 3000);
    onDelete?.(id);
    await keys.reload();
  };

  return {
    keys,
    lifetime,
    setLifetime,
    name,
    setName,
    created,
    dismissCreated: () => setCreated(null),
    /** Id of the key whose deletion waits for confirmation. */
    confirming,
    askDelete: (id: string) => setConfirming(id),
    cancelDelete: () => setConfirming(null),
    create,
    remove,
    pending,
    feedback,
  };
}
