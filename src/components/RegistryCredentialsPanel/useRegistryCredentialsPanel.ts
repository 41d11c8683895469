import { useCallback, useState, type FormEvent } from 'react';
import type { RegistryCredential } from '../../api/types';
import { CREDENTIAL_TOAST_MS } from '../../config/strings/account';
import { useStrings } from '../../config/PlatformProvider';
import { useAccountClients, useApiResource, useFeedback, useSignInState } from '../AccountPanel';

const EMPTY = { foreign_username: '', credential_alias: '', pat: '' };

export interface UseRegistryCredentialsPanelOptions {
  /** Called with the stored (masked) credential after it was added. */
  onAdd?: (credential: RegistryCredential) => void;
  /** Called with the id of a credential after it was deleted. */
  onDelete?: (id: string) => void;
}

/**
 * Docker Hub access tokens for private images (product-rules §8: success toast for 3 s): stored encrypted
 * by the server and only ever shown masked.
 */
export function useRegistryCredentialsPanel({ onAdd, onDelete }: UseRegistryCredentialsPanelOptions = {}) {
  const { profile } = useAccountClients();
  const strings = useStrings().account;
  const feedback = useFeedback();
  const signIn = useSignInState();
  const load = useCallback(() => profile.getPatToken(), [profile]);
  const warnLoad = useCallback(() => feedback.show('warning', strings.loadProblem), [feedback, strings.loadProblem]);
  const credentials = useApiResource(load, { enabled: signIn === 'signed-in', onError: warnLoad });
  const [form, setForm] = useState(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);

  const errors = {
    foreign_username: form.foreign_username.trim() ? undefined : strings.registryUsername,
    pat: form.pat.trim() ? undefined : strings.registryToken,
  };

  const add = async (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    if (errors.foreign_username || errors.pat) return;
    setPending(true);
    const result = await profile.upsertPat({ ...form, platform: 'dockerhub' });
    setPending(false);
    if (!result.ok) return feedback.show('warning', strings.createPatProblem);
    feedback.show('success', strings.patAdded, CREDENTIAL_TOAST_MS);
    setForm(EMPTY);
    setSubmitted(false);
    onAdd?.(result.data);
    await credentials.reload();
  };

  const remove = async (id: string) => {
    setPending(true);
    const result = await profile.deletePat(id);
    setPending(false);
    if (!result.ok) return feedback.show('warning', strings.deletePatProblem);
    onDelete?.(id);
    await credentials.reload();
  };

  return {
    credentials,
    form,
    setField: (name: keyof typeof EMPTY, value: string) => setForm((f) => ({ ...f, [name]: value })),
    /** Fields left empty, after a submit: the value is the field's label. */
    missing: (submitted ? errors : {}) as Partial<typeof errors>,
    add,
    remove,
    pending,
    feedback,
  };
}
