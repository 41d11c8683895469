import { createHmac } from 'node:crypto';
import { invalid } from '../api/errors';
import type { ServerConfig } from '../config';
import { safeEqual } from '../crypto/tokens';
import type { Db } from '../db/types';
import type { Mailer } from '../mail/mailer';
import { newsletterWelcomeMail } from '../mail/templates';
import { deleteSubscriptions, insertSubscriptions, optionNames } from './queries';

// Newsletter subscriptions by address and topic. Links in the mails carry an HMAC of the
// address, so only the address's owner can use them.

/** Proves an unsubscribe link was made by this server for that address. */
export function unsubscribeToken(linkKey: Buffer, email: string): string {
  return createHmac('sha256', linkKey).update(`unsubscribe:${email.toLowerCase()}`).digest('base64url');
}

export const isUnsubscribeToken = (linkKey: Buffer, email: string, token: string) =>
  !!email && safeEqual(token, unsubscribeToken(linkKey, email));

/** The option ids, deduplicated and sorted, each known; 422 naming the unknown ones. */
async function knownOptions(db: Db, products: number[]) {
  const ids = [...new Set(products)].sort((a, b) => a - b);
  if (!ids.length) throw invalid('products: choose at least one option');
  const names = await optionNames(db, ids);
  const unknown = ids.filter((id) => !names.has(id));
  if (unknown.length) throw invalid(`products: unknown subscription option ${unknown.join(', ')}`);
  return { ids, names };
}

export async function subscribe(
  deps: { db: Db; config: ServerConfig; mailer: Mailer; linkKey: Buffer },
  email: string,
  products: number[],
): Promise<number[]> {
  const { db, config, mailer, linkKey } = deps;
  const { ids, names } = await knownOptions(db, products);
  const address = email.toLowerCase();
  const inserted = await insertSubscriptions(db, address, ids);
  if (inserted.length) {
    const link = new URL(`${config.publicUrl}/v1/support/unsubscribe`);
    link.searchParams.set('email', address);
    link.searchParams.set('token', unsubscribeToken(linkKey, address));
    await mailer.send(
      newsletterWelcomeMail(
        config.brandName,
        address,
        inserted.map((r) => names.get(r.option_id)!),
        link.toString(),
      ),
    );
  }
  return ids;
}

export async function unsubscribe(db: Db, email: string, products: number[]): Promise<number[]> {
  const removed = await deleteSubscriptions(db, email.toLowerCase(), [...new Set(products)]);
  return removed.map((r) => r.option_id).sort((a, b) => a - b);
}
