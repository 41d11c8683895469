import { useCallback, useState, type FormEvent } from 'react';
import type { RegistryCredential } from '../../api/types';
import { CREDENTIAL_TOAST_MS } from '../../config/strings/account';
import { useStrings } from '../../config/PlatformProvider';
import { useAccountClients, useApiResource, useFeedback, useSignInState } from '../AccountPanel';

const EMPTY = { registry: '', foreign_username: '', credential_alias: '', pat: '' };

/** Docker Hub's host: a credential for it (or for no host given) is a `dockerhub` one. */
export const DOCKER_HUB_REGISTRY = 'docker.io';

/**
 * The upsert_pat body for a form (docs/publishing.md, "Build, push, deploy, run"): an empty host
 * or docker.io is a Docker Hub token, any other host[:port] a `registry` credential for it.
 */
export function credentialPayload(form: typeof EMPTY) {
  const { registry: host, ...rest } = form;
  const registry = host
    .trim()
    .replace(/^https?:\/\//, '')
    .replace(/\/+$/, '');
  return !registry || registry === DOCKER_HUB_REGISTRY
    ? { ...rest, platform: 'dockerhub' as const }
    : { ...rest, platform: 'registry' as const, registry };
}

export interface UseRegistryCredentialsPanelOptions {
  /** Called with the stored (masked) credential after it was added. */
  onAdd?: (credential: RegistryCredential) => void;
  /** Called with the id of a credential after it was deleted. */
  onDelete?: (id: string) => void;
}

/**
 * Registry access tokens for private images, Docker Hub's or any registry's (product-rules §8:
 * success toast for 3 s): stored encrypted by the server and only ever shown masked.
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
    const result = await profile.upsertPat(credentialPayload(form));
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
