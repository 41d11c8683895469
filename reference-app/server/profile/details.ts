import type { z } from '@hono/zod-openapi';
import { notFound } from '../errors';
import type { Db } from '../db/types';
import { grantSignUpBonus, SIGN_UP_BONUS } from '../payments/ledger';
import {
  insertProfile,
  markTermsAccepted,
  PROFILE_FIELDS,
  selectProfile,
  selectSignUpBonus,
  updateProfileFields,
  type ProfileField,
} from './queries';
import type { ProfileResultSchema, ProfileUpdateSchema } from './schemas';

// Profile details: created with the user (and the sign-up bonus); read as the ProfileResult the
// clients expect (src/api/types.ts); edited field by field.

export type ProfileResult = z.output<typeof ProfileResultSchema>;
export type ProfileUpdate = z.output<typeof ProfileUpdateSchema>;

/** Creates the platform side of a new user; runs in the transaction that creates the user. */
export async function createProfile(trx: Db, userId: string): Promise<void> {
  await insertProfile(trx, userId);
  await grantSignUpBonus(trx, userId);
}

export async function loadProfile(db: Db, userId: string): Promise<ProfileResult> {
  const row = await selectProfile(db, userId);
  if (!row) throw notFound('No user for this token: the account was deleted');
  if (!row.profile_user) {
    // Users from before the platform existed (or created by another tool) get theirs now.
    await db.transaction().execute((trx) => createProfile(trx, userId));
    return loadProfile(db, userId);
  }
  const bonus = await selectSignUpBonus(db, userId);
  const termsAccepted = row.terms_accepted ?? false;
  return {
    id: row.id,
    email: row.email,
    full_name: row.full_name,
    street: row.street,
    number: row.number,
    address_extra: row.address_extra,
    zip_code: row.zip_code,
    city: row.city,
    country_code: row.country_code,
    mobile: row.mobile,
    date_of_birth: row.date_of_birth,
    dt_created: (row.dt_created ?? new Date()).toISOString(),
    profile_picture_url: row.profile_picture_url,
    terms_accepted: termsAccepted,
    sign_up_bonus: bonus?.amount ?? SIGN_UP_BONUS,
    is_new_user: !termsAccepted,
  };
}

/** Accepts the terms once (is_new_user becomes false); later calls change nothing. */
export async function agreeToTerms(db: Db, userId: string): Promise<ProfileResult> {
  await loadProfile(db, userId);
  await markTermsAccepted(db, userId);
  return loadProfile(db, userId);
}

/** Applies the given fields: undefined keeps a field, null or '' clears it, read-only fields are ignored. */
export async function updateProfile(db: Db, userId: string, input: ProfileUpdate): Promise<ProfileResult> {
  await loadProfile(db, userId);
  const patch: Partial<Record<ProfileField, string | null>> = {};
  for (const field of PROFILE_FIELDS) {
    const value = input[field];
    if (value !== undefined) patch[field] = value === '' ? null : value;
  }
  if (Object.keys(patch).length) await updateProfileFields(db, userId, patch);
  return loadProfile(db, userId);
}
