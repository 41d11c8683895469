import { createRoute, z } from '@hono/zod-openapi';
import type { MaybeSignedInEnv, SignedInEnv } from '../api/authenticate';
import type { RateLimiter } from '../http/rateLimit';
import { rateLimited } from '../errors';
import { body, createApiApp, errors, json } from '../api/openapi';
import { IdResultSchema } from '../api/schemas';
import { clientIp } from '../http/clientIp';
import { escapeHtml } from '../mail/templates';
import { decodeAttachments } from './attachments';
import {
  confirmSubscription,
  isUnsubscribeToken,
  readConfirmLink,
  requestSubscription,
  unsubscribe,
  type NewsletterDeps,
} from './newsletter';
import { deleteSubscriptions, selectOptions } from './queries';
import { NewsletterSchema, SubscriptionOptionSchema, SupportSchema, UnsubscribeSchema } from './schemas';
import { openTicket, type TicketDeps } from './tickets';

/** What the support routes read: the newsletter's and the tickets' needs, and the rate limiter. */
export type SupportRouteDeps = NewsletterDeps & TicketDeps & { limiter: RateLimiter };

// /v1/support/: newsletter options and (un)subscription, open to everyone; the contact form,
// which needs a caller and accepts a few attachments of safe types.

const tags = ['support'];
/** Subscription requests (each a confirmation mail) per address and rate-limit window. */
const CONFIRM_MAILS_PER_ADDRESS = 3;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;padding:40px"><h1>${escapeHtml(title)}</h1><div>${body}</div></body></html>`;

export function supportPublicRoutes(deps: SupportRouteDeps) {
  const { db, config } = deps;
  const app = createApiApp();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/subscription_options',
      tags,
      summary: 'Newsletter topics one can subscribe to',
      responses: { 200: json(z.array(SubscriptionOptionSchema), 'Options') },
    }),
    async (c) => c.json(await selectOptions(db), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/subscribe_newsletter',
      tags,
      summary: 'Asks to subscribe an address (double opt-in): topics not yet confirmed are pending until the mailed link is followed',
      request: body(NewsletterSchema),
      responses: {
        200: json(
          z.object({ subscribed: z.array(z.number()), pending_confirmation: z.array(z.number()) }),
          'Topics already confirmed, and those awaiting confirmation',
        ),
        ...errors(422, 429),
      },
    }),
    async (c) => {
      const { email, products } = c.req.valid('json');
      const fromIp = await deps.limiter.hit('newsletter', clientIp(c, config.trustProxy), config.rateLimits.emailSent);
      if (!fromIp.allowed) throw rateLimited(`Too many subscriptions from your address; retry in ${fromIp.retryAfter} s`);
      // Confirmation mails to one address are few, so nobody can flood someone's inbox through us.
      const toAddress = await deps.limiter.hit('newsletter-address', email.toLowerCase(), CONFIRM_MAILS_PER_ADDRESS);
      if (!toAddress.allowed) throw rateLimited(`Too many subscription requests for ${email}; retry in ${toAddress.retryAfter} s`);
      return c.json(await requestSubscription(deps, email, products), 200);
    },
  );

  // The link in the confirmation mail: a page with a button, because mail scanners open links
  // (a GET must not subscribe anyone); the button posts back to the same URL.
  app.on(['GET', 'POST'], '/confirm_newsletter', async (c) => {
    const link = readConfirmLink(deps.linkKey, c.req.query());
    if ('error' in link) return c.html(page('Invalid link', escapeHtml(link.error ?? '')), 400);
    if (c.req.method === 'GET') {
      const form = `<form method="post"><button type="submit">Confirm subscription for ${escapeHtml(link.email)}</button></form>`;
      return c.html(page('Confirm your subscription', form));
    }
    await confirmSubscription(deps, link.email, link.ids);
    return c.html(page('Subscribed', `${escapeHtml(link.email)} is subscribed. Every mail has a link to unsubscribe.`));
  });

  // The link in newsletter mails: a page with a button, like the confirmation link, because
  // mail scanners open links; the button (or a mail client's one-click unsubscribe) posts.
  app.on(['GET', 'POST'], '/unsubscribe', async (c) => {
    const email = (c.req.query('email') ?? '').toLowerCase();
    if (!isUnsubscribeToken(deps.linkKey, email, c.req.query('token') ?? '')) {
      return c.html(page('Invalid link', 'This unsubscribe link is invalid.'), 400);
    }
    if (c.req.method === 'GET') {
      const form = `<form method="post"><button type="submit">Unsubscribe ${escapeHtml(email)} from every newsletter</button></form>`;
      return c.html(page('Unsubscribe', form));
    }
    await deleteSubscriptions(db, email, []);
    return c.html(page('Unsubscribed', `${escapeHtml(email)} will receive no more newsletters.`));
  });

  return app;
}

/** Unsubscribing: with an unsubscribe link's token, or signed in as the address. */
export function newsletterOwnerRoutes(deps: Pick<SupportRouteDeps, 'db' | 'linkKey'>) {
  const app = createApiApp<MaybeSignedInEnv>();
  app.openapi(
    createRoute({
      method: 'post',
      path: '/unsubscribe_newsletter',
      tags,
      summary:
        'Unsubscribes an address from the given topics (an empty list: from all); needs the token of an unsubscribe link or the signed-in owner',
      request: body(UnsubscribeSchema),
      responses: { 200: json(z.object({ unsubscribed: z.array(z.number()) }), 'Topics removed'), ...errors(403, 422) },
    }),
    async (c) => c.json({ unsubscribed: await unsubscribe(deps, c.req.valid('json'), c.var.caller?.email) }, 200),
  );
  return app;
}

export function supportRoutes(deps: SupportRouteDeps) {
  const { config } = deps;
  const app = createApiApp<SignedInEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/support',
      tags,
      summary: 'Contact support; up to 5 attachments (png, jpeg, gif, webp, pdf, txt, csv, json, zip), 5 MB each, 10 MB in all',
      request: body(SupportSchema),
      responses: { 200: json(IdResultSchema, 'The ticket id'), ...errors(413, 422, 429) },
    }),
    async (c) => {
      const { caller } = c.var;
      const input = c.req.valid('json');
      const decision = await deps.limiter.hit('support', caller.userId, config.rateLimits.support);
      if (!decision.allowed) throw rateLimited(`Too many support requests; retry in ${decision.retryAfter} s`);
      const files = decodeAttachments(input.attachments ?? []);
      return c.json(await openTicket(deps, caller.userId, input, files), 200);
    },
  );

  return app;
}
