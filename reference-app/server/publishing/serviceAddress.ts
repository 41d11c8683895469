import type { Db } from '../db/types';
import { DomainError } from '../errors';
import { handleSourcesOf, lockServiceNames, serviceNamed } from './queries';

// Service pages, search results and catalogue cards address a service by its display name, so a
// display name is the service's address and must be unique (docs/publishing.md, "Service
// addresses"): compared after trimming and case-insensitively with every other service's name (or
// id, for seeded services without one). A name in `owner/name` form must start with the
// publisher's own handle, so nobody can imitate another owner's service.

/** A 409 on `display_name`, with the field error the form shows. */
const taken = (message: string) =>
  new DomainError('conflict', `display_name: ${message}`, [{ name: 'display_name', rule: 'unique', message }]);

/** Handles a publisher may put before a slash: their user name (e-mail local part) and their name as a slug. */
async function handlesOf(db: Db, userId: string): Promise<string[]> {
  const row = await handleSourcesOf(db, userId);
  const slug = (text: string) =>
    text
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '');
  return [row?.email?.split('@')[0], row?.full_name].filter((h): h is string => !!h?.trim()).map(slug);
}

/**
 * Refuses a display name another service uses, or an `owner/name` whose owner is not the caller.
 * Call inside the transaction that writes the name: the lock makes check and write one step when
 * two publishers race for the same name, on PGlite and across PostgreSQL processes.
 */
export async function claimDisplayName(trx: Db, userId: string, name: string, except?: string): Promise<void> {
  const wanted = name.trim();
  const slash = wanted.indexOf('/');
  if (slash >= 0) {
    const owner = wanted.slice(0, slash).trim().toLowerCase();
    const handles = await handlesOf(trx, userId);
    if (!handles.includes(owner)) {
      throw taken(
        `a name with a slash must start with your own handle (${handles[0] ?? 'your user name'}/…); "${wanted.slice(0, slash)}" is not yours`,
      );
    }
  }
  await lockServiceNames(trx);
  if (await serviceNamed(trx, wanted, except)) {
    throw taken(`another service is already called "${wanted}"; service names are unique (ignoring case), choose another`);
  }
}
