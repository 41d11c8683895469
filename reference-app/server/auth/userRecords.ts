import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { IdentitiesTable, MfaFactorsTable, Db, UsersTable } from '../db/types';
import {
  deleteSessionsOf,
  insertIdentity,
  insertUserRow,
  selectEmailIdentity,
  selectFactorsOf,
  selectIdentitiesOf,
  selectUserByEmail,
  selectUserById,
  updateIdentity,
  updateUserRow,
} from './queries';

// User records: queries for users, their identities and factors, and the User object GoTrue
// returns. The HTTP routes for the signed-in user (GET/PUT /user, /logout) are in userRoutes.ts.

export type UserRow = Selectable<UsersTable>;
export type IdentityRow = Selectable<IdentitiesTable>;
export type FactorRow = Selectable<MfaFactorsTable>;

export interface UserBundle {
  user: UserRow;
  identities: IdentityRow[];
  factors: FactorRow[];
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);

/** Metadata the server maintains from the identity; what a client sends for them is ignored. */
const RESERVED_METADATA = new Set(['sub', 'email', 'email_verified', 'phone_verified']);

export function clientMetadata(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => !RESERVED_METADATA.has(key)));
}

/** E-mail addresses are compared trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

// Pragmatic check: one @, no spaces, a dot in the domain. The spec leaves the exact pattern open.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isValidEmail = (email: string) => email.length <= 254 && EMAIL_PATTERN.test(email);

export function findUserByEmail(q: Db, email: string): Promise<UserRow | undefined> {
  return selectUserByEmail(q, normalizeEmail(email));
}

export function findUserById(q: Db, id: string): Promise<UserRow | undefined> {
  return selectUserById(q, id);
}

export async function loadUserBundle(q: Db, user: UserRow): Promise<UserBundle> {
  const [identities, factors] = await Promise.all([selectIdentitiesOf(q, user.id), selectFactorsOf(q, user.id)]);
  return { user, identities, factors };
}

export function isBanned(user: UserRow): boolean {
  return !!user.banned_until && user.banned_until.getTime() > Date.now();
}

export function appMetadata(user: UserRow): Record<string, unknown> {
  return { provider: 'email', providers: ['email'], ...user.raw_app_meta_data };
}

export function identityResponse(identity: IdentityRow) {
  const data = identity.identity_data;
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: data,
    provider: identity.provider,
    last_sign_in_at: iso(identity.last_sign_in_at) ?? iso(identity.created_at),
    created_at: iso(identity.created_at),
    updated_at: iso(identity.updated_at),
    email: typeof data.email === 'string' ? data.email : undefined,
  };
}

export function factorResponse(factor: FactorRow) {
  return {
    id: factor.id,
    friendly_name: factor.friendly_name ?? '',
    factor_type: factor.factor_type,
    status: factor.status,
    created_at: iso(factor.created_at),
    updated_at: iso(factor.updated_at),
  };
}

/** The User object of GoTrue's responses. */
export function userResponse({ user, identities, factors }: UserBundle) {
  return {
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email,
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: '',
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.email_confirmed_at),
    invited_at: iso(user.invited_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change ?? undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: appMetadata(user),
    user_metadata: user.raw_user_meta_data,
    identities: identities.map(identityResponse),
    ...(factors.length ? { factors: factors.map(factorResponse) } : {}),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    is_anonymous: false,
  };
}

export type UserResponse = ReturnType<typeof userResponse>;

/**
 * GoTrue's answer to a sign-up for an address that is already registered and confirmed: a
 * look-alike user with a fresh id and no identities, so the response does not reveal the account.
 */
export function obfuscatedUserResponse(email: string, data: Record<string, unknown>): UserResponse {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: 'authenticated',
    email: normalizeEmail(email),
    email_confirmed_at: undefined,
    phone: '',
    confirmation_sent_at: now,
    confirmed_at: undefined,
    invited_at: undefined,
    recovery_sent_at: undefined,
    new_email: undefined,
    email_change_sent_at: undefined,
    last_sign_in_at: undefined,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

export interface NewUser {
  /** Fixed id (seed data); random otherwise. */
  id?: string;
  createdAt?: Date;
  email: string;
  passwordHash: string | null;
  metadata: Record<string, unknown>;
  confirmed: boolean;
  provider?: string;
  providerId?: string;
  providerData?: Record<string, unknown>;
}

/** Creates a user with its identity; the caller's transaction also creates the profile. */
export async function insertUser(trx: Db, input: NewUser): Promise<UserRow> {
  const id = input.id ?? randomUUID();
  const email = normalizeEmail(input.email);
  const now = input.createdAt ?? new Date();
  const provider = input.provider ?? 'email';
  const identityData = {
    ...(input.providerData ?? {}),
    sub: input.providerId ?? id,
    email,
    email_verified: input.confirmed,
    phone_verified: false,
  };
  const user = await insertUserRow(trx, {
    id,
    email,
    created_at: now,
    updated_at: now,
    encrypted_password: input.passwordHash,
    email_confirmed_at: input.confirmed ? now : null,
    raw_app_meta_data: JSON.stringify({ provider, providers: [provider] }),
    raw_user_meta_data: JSON.stringify({ ...input.metadata, ...identityData, sub: id }),
  });
  await insertIdentity(trx, {
    user_id: id,
    provider,
    provider_id: input.providerId ?? id,
    identity_data: JSON.stringify(identityData),
    created_at: now,
    updated_at: now,
  });
  return user;
}

/**
 * How an address gets confirmed: by the link of the sign-up that set the password, or through
 * another channel (magic link or e-mail code, recovery, an OAuth provider that verified it).
 */
export type ConfirmationChannel = 'signup' | 'other';

/**
 * Marks the address confirmed, in the user row, its metadata and its email identity.
 *
 * Pre-registration takeover: anyone may sign up with someone else's address and never confirm
 * it. When the owner then proves the address through another channel, the password the
 * unconfirmed sign-up chose, and every session made before, belong to whoever signed up, not
 * to the owner: both go (the owner sets a password through recovery when they want one).
 */
export async function confirmEmail(trx: Db, user: UserRow, channel: ConfirmationChannel): Promise<UserRow> {
  const now = new Date();
  const takeover = !user.email_confirmed_at && channel === 'other';
  if (takeover) await deleteSessionsOf(trx, user.id);
  const updated = await updateUserRow(trx, user.id, {
    email_confirmed_at: user.email_confirmed_at ?? now,
    raw_user_meta_data: JSON.stringify({ ...user.raw_user_meta_data, email_verified: true }),
    updated_at: now,
    ...(takeover ? { encrypted_password: null } : {}),
  });
  await markEmailIdentityVerified(trx, user.id, now);
  return updated;
}

/** The user's email identity records the (new) address as verified; `email` when it changed. */
export async function markEmailIdentityVerified(trx: Db, userId: string, now: Date, email?: string): Promise<void> {
  const identity = await selectEmailIdentity(trx, userId);
  if (!identity) return;
  await updateIdentity(trx, identity.id, {
    identity_data: JSON.stringify({ ...identity.identity_data, ...(email ? { email } : {}), email_verified: true }),
    updated_at: now,
  });
}
