import { useState, type FormEvent } from 'react';
import { useAuth, useSession } from '../../auth/AuthProvider';
import { validateNewPassword } from '../../auth/validation';
import { useStrings } from '../../config/PlatformProvider';
import { useFeedback } from '../AccountPanel';
import { changePassword, passwordChangeMessage, type PasswordChangeOutcome } from './changePassword';

export interface UseChangePasswordFormOptions {
  /** Called after the password was changed. */
  onChange?: () => void;
}

/** Headless password change form (product-rules §5): fields, validation, submit, the outcome message. */
export function useChangePasswordForm({ onChange }: UseChangePasswordFormOptions = {}) {
  const { client } = useAuth();
  const email = useSession((state) => state.session?.user.email ?? '');
  const strings = useStrings();
  const feedback = useFeedback();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);

  const errors = {
    currentPassword: currentPassword ? undefined : strings.auth.validation.passwordRequired,
    newPassword: (() => {
      const key = validateNewPassword(newPassword);
      return key ? strings.auth.validation[key] : undefined;
    })(),
  };
  const shownErrors: Partial<typeof errors> = submitted ? errors : {};

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    if (errors.currentPassword || errors.newPassword || pending) return;
    setPending(true);
    const outcome: PasswordChangeOutcome = await changePassword(client, email, currentPassword, newPassword);
    setPending(false);
    const message = passwordChangeMessage(outcome, strings.account);
    if (outcome.kind === 'changed') {
      feedback.show('success', message);
      setCurrentPassword('');
      setNewPassword('');
      setSubmitted(false);
      onChange?.();
    } else {
      feedback.show('danger', message);
    }
  };

  return { currentPassword, setCurrentPassword, newPassword, setNewPassword, errors: shownErrors, submit, pending, feedback };
}
