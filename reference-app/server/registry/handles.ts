import type { Db } from '../db/types';
import { selectUserEmail } from './queries';

// A user's namespace in the platform's registry. E-mail local parts are not unique (ada@a.org,
// ada@b.org) and display names change, so the handle is the local part as a slug followed by the
// first 12 hex digits of the user's id: readable, stable, and never another user's.

export function registryHandle(email: string, userId: string): string {
  const local =
    (email.split('@')[0] ?? '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'user';
  return `${local}-${userId.replace(/-/g, '').slice(0, 12).toLowerCase()}`;
}

/** The handle of a stored user, or null when the user is gone. */
export async function handleOfUser(db: Db, userId: string): Promise<string | null> {
  const email = await selectUserEmail(db, userId);
  return email === undefined ? null : registryHandle(email, userId);
}
