import { createHmac } from 'node:crypto';
import { forbidden, invalid } from '../errors';
import type { CoreConfig } from '../config/core';
import { safeEqual } from '../crypto/tokens';
import type { Db } from '../db/types';
import { newsletterConfirmMail, newsletterWelcomeMail } from '../mail/templates';
import type { MailOutbox } from './mailOutbox';
import { confirmSubscriptions, deleteSubscriptions, insertPendingSubscriptions, optionNames, selectSubscriptionsOf } from './queries';

// Newsletter subscriptions with double opt-in: a subscription request stores pending rows and
// mails a signed confirmation link; only confirmed rows count. Unsubscribing needs proof of
// the address: the signed link of a newsletter mail, or being signed in as that address.
// Links carry an HMAC of what they allow, keyed with the server's link key.

export const CONFIRM_LINK_TTL_S = 7 * 86_400;

export interface NewsletterDeps {
  db: Db;
  config: CoreConfig;
  outbox: MailOutbox;
  linkKey: Buffer;
}

const sign = (linkKey: Buffer, text: string) => createHmac('sha256', linkKey).update(text).digest('base64url');

/** Proves an unsubscribe link was made by this server for that address. */
export const unsubscribeToken = (linkKey: Buffer, email: string) => sign(linkKey, `unsubscribe:${email.toLowerCase()}`);

export const isUnsubscribeToken = (linkKey: Buffer, email: string, token: string) =>
  !!email && safeEqual(token, unsubscribeToken(linkKey, email));

const confirmText = (email: string, ids: number[], expires: number) =>
  `newsletter-confirm:${email.toLowerCase()}:${ids.join(',')}:${expires}`;

export function confirmLink(deps: Pick<NewsletterDeps, 'config' | 'linkKey'>, email: string, ids: number[], now = Date.now()): string {
  const expires = Math.floor(now / 1000) + CONFIRM_LINK_TTL_S;
  const link = new URL(`${deps.config.publicUrl}/v1/support/confirm_newsletter`);
  link.searchParams.set('email', email);
  link.searchParams.set('products', ids.join(','));
  link.searchParams.set('expires', String(expires));
  link.searchParams.set('token', sign(deps.linkKey, confirmText(email, ids, expires)));
  return link.toString();
}

/** What a confirmation link allows, or why it allows nothing. */
export function readConfirmLink(linkKey: Buffer, query: Record<string, string | undefined>, now = Date.now()) {
  const email = (query.email ?? '').toLowerCase();
  const ids = (query.products ?? '').split(',').filter(Boolean).map(Number);
  const expires = Number(query.expires);
  if (!email || !ids.length || ids.some((id) => !Number.isInteger(id)) || !Number.isInteger(expires))
    return { error: 'This confirmation link is incomplete.' } as const;
  if (!safeEqual(query.token ?? '', sign(linkKey, confirmText(email, ids, expires))))
    return { error: 'This confirmation link is invalid.' } as const;
  if (expires * 1000 < now) return { error: 'This confirmation link has expired; subscribe again.' } as const;
  return { email, ids } as const;
}

/** The option ids, deduplicated and sorted, each known; 422 naming the unknown ones. */
async function knownOptions(db: Db, products: number[]) {
  const ids = [...new Set(products)].sort((a, b) => a - b);
  if (!ids.length) throw invalid('products: choose at least one option');
  const names = await optionNames(db, ids);
  const unknown = ids.filter((id) => !names.has(id));
  if (unknown.length) throw invalid(`products: unknown subscription option ${unknown.join(', ')}`);
  return { ids, names };
}

/**
 * Requests a subscription: options already confirmed stay; the others become pending and one
 * mail asks to confirm them. Nothing is sent to the address until it confirms.
 */
export async function requestSubscription(deps: NewsletterDeps, email: string, products: number[]) {
  const { db, config, outbox } = deps;
  const { ids, names } = await knownOptions(db, products);
  const address = email.toLowerCase();
  const current = await selectSubscriptionsOf(db, address);
  const confirmed = new Set(current.filter((r) => r.confirmed_at).map((r) => r.option_id));
  const pending = ids.filter((id) => !confirmed.has(id));
  if (pending.length) {
    await insertPendingSubscriptions(db, address, pending);
    const topics = pending.map((id) => names.get(id)!);
    await outbox.enqueue(db, newsletterConfirmMail(config.brandName, address, topics, confirmLink(deps, address, pending)));
    outbox.kick();
  }
  return { subscribed: ids.filter((id) => confirmed.has(id)), pending_confirmation: pending };
}

/** Confirms what a valid link allows and welcomes the address with an unsubscribe link. */
export async function confirmSubscription(deps: NewsletterDeps, email: string, ids: number[]): Promise<number[]> {
  const { db, config, outbox } = deps;
  const names = await optionNames(db, ids);
  const known = ids.filter((id) => names.has(id));
  const confirmed = await confirmSubscriptions(db, email, known);
  if (confirmed.length) {
    const link = new URL(`${config.publicUrl}/v1/support/unsubscribe`);
    link.searchParams.set('email', email);
    link.searchParams.set('token', unsubscribeToken(deps.linkKey, email));
    const topics = confirmed.map((id) => names.get(id)!);
    await outbox.enqueue(db, newsletterWelcomeMail(config.brandName, email, topics, link.toString()));
    outbox.kick();
  }
  return confirmed;
}

/**
 * Unsubscribes with proof of the address: an unsubscribe link's token, or the signed-in
 * caller's own address. An empty product list means every option.
 */
export async function unsubscribe(
  deps: Pick<NewsletterDeps, 'db' | 'linkKey'>,
  request: { email: string; products: number[]; token?: string | undefined },
  callerEmail: string | undefined,
): Promise<number[]> {
  const email = request.email.toLowerCase();
  const owner = !!callerEmail && callerEmail.toLowerCase() === email;
  if (!owner && !isUnsubscribeToken(deps.linkKey, email, request.token ?? '')) {
    throw forbidden(`To unsubscribe ${email}, use the link in one of our newsletter mails, or sign in as that address`);
  }
  const removed = await deleteSubscriptions(deps.db, email, [...new Set(request.products)]);
  return removed.map((r) => r.option_id).sort((a, b) => a - b);
}
