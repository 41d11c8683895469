import type { Db } from '../db/types';
import { isUuid } from '../db/uuid';
import type { AuthDeps } from './deps';
import { AuthHttpError, badRequest, notFound, unprocessable, validationFailed } from './errors';
import { objectField, stringField, type Body } from './request';
import { assertMetadataFits } from './signup';
import { updateUserRow } from './queries';
import {
  clientMetadata,
  findUserByEmail,
  findUserById,
  insertUser,
  isValidEmail,
  normalizeEmail,
  type NewUser,
  type UserRow,
} from './userRecords';

// What the admin API reads from its requests (GoTrue's AdminUserParams) and the user it acts on.

/** GoTrue's message when an address belongs to another user. */
export const DUPLICATE_EMAIL = 'A user with this email address has already been registered';
const MAX_PASSWORD_LENGTH = 1024;

/** The user of `/admin/users/{id}`, with GoTrue's 404s for a malformed and an unknown id. */
export async function loadAdminTarget(db: Db, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw notFound('validation_failed', 'user_id must be an UUID');
  const user = await findUserById(db, id);
  if (!user) throw notFound('user_not_found', 'User not found');
  return user;
}

export function booleanField(body: Body, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw validationFailed(`${name} must be a boolean`);
  return value;
}

// RFC 5322 dot-atoms on both sides of the @, as GoTrue's validation accepts: the admin names
// addresses no user typed, so the stricter check applies (no "xx:;x@x.x").
const ADMIN_EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** A normalized, valid address, or GoTrue's validation errors. */
export function adminEmail(raw: string): string {
  const email = normalizeEmail(raw);
  if (!email) throw validationFailed('An email address is required');
  if (!isValidEmail(email) || !ADMIN_EMAIL.test(email)) throw validationFailed('Unable to validate email address: invalid format');
  return email;
}

export async function assertEmailFree(db: Db, email: string, exceptUserId?: string): Promise<void> {
  const owner = await findUserByEmail(db, email);
  if (owner && owner.id !== exceptUserId) throw unprocessable('email_exists', DUPLICATE_EMAIL);
}

/** The admin may set any password (no strength rules, as in GoTrue), within the hashing limit. */
export function adminPassword(body: Body): string | undefined {
  const password = stringField(body, 'password');
  if (password && password.length > MAX_PASSWORD_LENGTH)
    throw validationFailed(`Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`);
  return password || undefined;
}

export function adminUserMetadata(body: Body, name: 'user_metadata' | 'app_metadata'): Record<string, unknown> | undefined {
  const data = objectField(body, name);
  if (!data) return undefined;
  assertMetadataFits(data);
  return name === 'user_metadata' ? clientMetadata(data) : data;
}

/** Phone users and imported password hashes are features this server does not have: say so. */
export function refuseUnsupported(body: Body): void {
  if (stringField(body, 'phone')) throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
  if (stringField(body, 'password_hash'))
    throw validationFailed('password_hash is not supported: send the password and the server hashes it');
}

/** `data` merges key by key into stored metadata; a null value deletes the key (GoTrue's rule). */
export function mergeMetadata(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const next = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

const DURATION_UNITS_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 };
const DURATION = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/;

/**
 * `ban_duration` as GoTrue reads it: a Go duration ("24h", "1h30m", "90s") from now, or "none"
 * to lift a ban. Returns the new `banned_until` (null lifts), undefined when absent.
 */
export function banUntil(body: Body): Date | null | undefined {
  const raw = stringField(body, 'ban_duration');
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'none') return null;
  let rest = raw;
  let ms = 0;
  while (rest) {
    const match = DURATION.exec(rest);
    if (!match) throw new AuthHttpError(400, 'validation_failed', `invalid format for ban duration: time: invalid duration "${raw}"`);
    ms += Number(match[1]) * DURATION_UNITS_MS[match[2]!]!;
    rest = rest.slice(match[0].length);
  }
  return new Date(Date.now() + ms);
}

/**
 * A user the admin creates (POST /admin/users, generate_link, /invite), with the platform's
 * profile. Its user_metadata is exactly what the admin gave, as GoTrue's admin API keeps it
 * (a sign-up also copies the identity's claims into it).
 */
export async function insertAdminUser(trx: Db, deps: AuthDeps, input: NewUser): Promise<UserRow> {
  const user = await insertUser(trx, input);
  await deps.onUserCreated(trx, user.id);
  return updateUserRow(trx, user.id, { raw_user_meta_data: JSON.stringify(input.metadata) });
}
