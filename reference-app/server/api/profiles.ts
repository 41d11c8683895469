import type { z } from '@hono/zod-openapi';
import type { Db, Tx } from '../db/types';
import { grantSignUpBonus, SIGN_UP_BONUS } from '../payments/ledger';
import type { ApiCaller } from './caller';
import { notFound } from './errors';
import type { ProfileResultSchema } from './schemas';

// Profiles: created with the user (and the sign-up bonus); read as the ProfileResult of spec §3.

export type ProfileResult = z.output<typeof ProfileResultSchema>;

/** Creates the platform side of a new user; runs in the transaction that creates the user. */
export async function createProfile(trx: Tx, userId: string): Promise<void> {
  await trx
    .insertInto('profiles')
    .values({ user_id: userId })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  await grantSignUpBonus(trx, userId);
}

export async function loadProfile(db: Db, caller: ApiCaller): Promise<ProfileResult> {
  const row = await db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.user_id', 'users.id')
    .select([
      'users.id',
      'users.email',
      'profiles.user_id as profile_user',
      'profiles.full_name',
      'profiles.street',
      'profiles.number',
      'profiles.address_extra',
      'profiles.zip_code',
      'profiles.city',
      'profiles.country_code',
      'profiles.mobile',
      'profiles.date_of_birth',
      'profiles.dt_created',
      'profiles.profile_picture_url',
      'profiles.terms_accepted',
    ])
    .where('users.id', '=', caller.userId)
    .executeTakeFirst();
  if (!row) throw notFound('No user for this token: the account was deleted');
  if (!row.profile_user) {
    // Users from before the platform existed (or created by another tool) get theirs now.
    await db.transaction().execute((trx) => createProfile(trx, caller.userId));
    return loadProfile(db, caller);
  }
  const bonus = await db
    .selectFrom('credit_ledger')
    .select('amount')
    .where('user_id', '=', caller.userId)
    .where('kind', '=', 'sign_up_bonus')
    .executeTakeFirst();
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
