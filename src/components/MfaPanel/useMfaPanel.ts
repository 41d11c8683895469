import { useCallback, useState, type FormEvent } from 'react';
import type { Factor } from '@supabase/auth-js';
import { useAuth } from '../../auth/AuthProvider';
import { useStrings } from '../../config/PlatformProvider';
import { useFeedback, useSignInState } from '../AccountPanel';
import { useApiResource } from '../../config/useApiResource';
import { isTotpCode } from './totpCode';

/** A TOTP enrolment waiting for its first code. */
export interface PendingEnrolment {
  factorId: string;
  /** `otpauth://` URI the QR code encodes. */
  uri: string;
  /** The shared secret, base32, for typing into the app by hand. */
  secret: string;
}

export interface UseMfaPanelOptions {
  /** Called with the factor id once a new factor is verified. */
  onEnrol?: (factorId: string) => void;
  /** Called with the factor id after a factor was removed. */
  onRemove?: (factorId: string) => void;
}

/**
 * Multi-factor authentication (TOTP) on the auth client: list factors, enrol one (QR code and
 * secret, confirmed with a first code, which also lifts the session to aal2), remove one after
 * a confirmation. A started enrolment that is abandoned is removed again, so no unverified
 * factor lingers.
 */
export function useMfaPanel({ onEnrol, onRemove }: UseMfaPanelOptions = {}) {
  const { client } = useAuth();
  const strings = useStrings().account;
  const feedback = useFeedback();
  const signIn = useSignInState();
  const load = useCallback(async () => {
    const { data, error } = await client.mfa.listFactors();
    return error
      ? ({ ok: false, status: error.status ?? 0, statusText: '', url: '', error: error.message } as const)
      : ({ ok: true, status: 200, data: data.all } as const);
  }, [client]);
  const warnLoad = useCallback(() => feedback.show('warning', strings.mfaProblem), [feedback, strings.mfaProblem]);
  const factors = useApiResource<Factor[]>(load, { enabled: signIn === 'signed-in', onError: warnLoad });
  const [pending, setPending] = useState<PendingEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    try {
      return await work();
    } catch {
      feedback.show('danger', strings.mfaProblem);
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  const startEnrolment = () =>
    run(async () => {
      feedback.clear();
      const { data, error } = await client.mfa.enroll({ factorType: 'totp' });
      if (error) return feedback.show('danger', error.message || strings.mfaProblem);
      setCode('');
      setCodeError(undefined);
      setPending({ factorId: data.id, uri: data.totp.uri, secret: data.totp.secret });
    });

  const confirmEnrolment = (event?: FormEvent) => {
    event?.preventDefault();
    if (!pending) return Promise.resolve();
    const trimmed = code.replace(/\s+/g, '');
    if (!isTotpCode(trimmed)) {
      setCodeError(strings.mfaCodeInvalid);
      return Promise.resolve();
    }
    return run(async () => {
      const { error } = await client.mfa.challengeAndVerify({ factorId: pending.factorId, code: trimmed });
      if (error) {
        setCodeError(error.message || strings.mfaCodeInvalid);
        return;
      }
      const factorId = pending.factorId;
      setPending(null);
      setCode('');
      setCodeError(undefined);
      feedback.show('success', strings.mfaEnrolled, 3000);
      onEnrol?.(factorId);
      await factors.reload();
    });
  };

  const cancelEnrolment = () =>
    run(async () => {
      if (!pending) return;
      const factorId = pending.factorId;
      setPending(null);
      await client.mfa.unenroll({ factorId });
      await factors.reload();
    });

  const remove = (factorId: string) =>
    run(async () => {
      setConfirming(null);
      const { error } = await client.mfa.unenroll({ factorId });
      if (error) return feedback.show('danger', error.message || strings.mfaProblem);
      feedback.show('success', strings.mfaRemoved, 3000);
      onRemove?.(factorId);
      await factors.reload();
    });

  return {
    factors,
    pending,
    code,
    setCode: (value: string) => {
      setCode(value);
      setCodeError(undefined);
    },
    codeError,
    startEnrolment,
    confirmEnrolment,
    cancelEnrolment,
    confirming,
    askRemove: (factorId: string) => setConfirming(factorId),
    cancelRemove: () => setConfirming(null),
    remove,
    busy,
    feedback,
  };
}
