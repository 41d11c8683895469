import type { Db } from '../db/types';

/** The e-mail of a stored user (their registry handle's readable part), or undefined. */
export async function selectUserEmail(db: Db, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select(['email']).where('id', '=', userId).executeTakeFirst())?.email;
}
