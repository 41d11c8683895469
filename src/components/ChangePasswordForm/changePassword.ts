import type { LimeAuthClient } from '../../auth/client';

/** What a password change came to; the form shows the matching spec message. */
export type PasswordChangeOutcome =
  | { kind: 'changed' }
  | { kind: 'current-incorrect' }
  /** The provider refused the new password; `message` is its own text when it gave one. */
  | { kind: 'failed'; message: string | null }
  | { kind: 'unexpected' };

/**
 * product-rules §5 password change: re-authenticate with the current password first, then set the new
 * one. The outcomes map to 'Current password is incorrect', the provider's message or 'Failed
 * to change password', 'Password changed successfully', and 'An unexpected error occurred' for
 * anything thrown on the way.
 */
export async function changePassword(
  client: Pick<LimeAuthClient, 'signInWithPassword' | 'updateUser'>,
  email: string,
  currentPassword: string,
  newPassword: string,
): Promise<PasswordChangeOutcome> {
  try {
    const reauth = await client.signInWithPassword({ email, password: currentPassword });
    if (reauth.error) return { kind: 'current-incorrect' };
    const update = await client.updateUser({ password: newPassword });
    if (update.error) return { kind: 'failed', message: update.error.message?.trim() || null };
    return { kind: 'changed' };
  } catch {
    return { kind: 'unexpected' };
  }
}

/** The spec text for an outcome. */
export function passwordChangeMessage(
  outcome: PasswordChangeOutcome,
  strings: { passwordIncorrect: string; passwordChangeFailed: string; passwordChanged: string; unexpected: string },
): string {
  switch (outcome.kind) {
    case 'changed':
      return strings.passwordChanged;
    case 'current-incorrect':
      return strings.passwordIncorrect;
    case 'failed':
      return outcome.message ?? strings.passwordChangeFailed;
    case 'unexpected':
      return strings.unexpected;
  }
}
