import { createRoute, z } from '@hono/zod-openapi';
import type { SignedInEnv } from '../api/authenticate';
import type { ApiDeps } from '../api/deps';
import { ApiHttpError } from '../api/errors';
import { body, createApiApp, errors, json } from '../api/openapi';
import { IdResultSchema } from '../api/schemas';
import { clientIp } from '../http/clientIp';
import { escapeHtml } from '../mail/templates';
import { decodeAttachments } from './attachments';
import { isUnsubscribeToken, subscribe, unsubscribe } from './newsletter';
import { deleteSubscriptions, selectOptions } from './queries';
import { NewsletterSchema, SubscriptionOptionSchema, SupportSchema } from './schemas';
import { openTicket } from './tickets';

// /v1/support/: newsletter options and (un)subscription, open to everyone; the contact form,
// which needs a caller and accepts a few attachments of safe types.

const tags = ['support'];

export function supportPublicRoutes(deps: ApiDeps) {
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
      summary: 'Subscribes an address to the given topics (idempotent) and sends a welcome mail',
      request: body(NewsletterSchema),
      responses: { 200: json(z.object({ subscribed: z.array(z.number()) }), 'Topics now subscribed'), ...errors(422, 429) },
    }),
    async (c) => {
      const { email, products } = c.req.valid('json');
      const decision = await deps.limiter.hit('newsletter', clientIp(c, config.trustProxy), config.rateLimits.emailSent);
      if (!decision.allowed) throw new ApiHttpError(429, `Too many subscriptions from your address; retry in ${decision.retryAfter} s`);
      return c.json({ subscribed: await subscribe(deps, email, products) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/unsubscribe_newsletter',
      tags,
      summary: 'Unsubscribes an address from the given topics (an empty list: from all)',
      request: body(NewsletterSchema),
      responses: { 200: json(z.object({ unsubscribed: z.array(z.number()) }), 'Topics removed'), ...errors(422) },
    }),
    async (c) => {
      const { email, products } = c.req.valid('json');
      return c.json({ unsubscribed: await unsubscribe(db, email, products) }, 200);
    },
  );

  // The link in the welcome mail: a page, not JSON, because a mail client opens it.
  app.get('/unsubscribe', async (c) => {
    const email = (c.req.query('email') ?? '').toLowerCase();
    const ok = isUnsubscribeToken(deps.linkKey, email, c.req.query('token') ?? '');
    if (ok) await deleteSubscriptions(db, email, []);
    const message = ok ? `${escapeHtml(email)} will receive no more newsletters.` : 'This unsubscribe link is invalid.';
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unsubscribe</title></head><body style="font-family:system-ui,sans-serif;padding:40px"><h1>${ok ? 'Unsubscribed' : 'Invalid link'}</h1><p>${message}</p></body></html>`,
      ok ? 200 : 400,
    );
  });

  return app;
}

export function supportRoutes(deps: ApiDeps) {
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
      if (!decision.allowed) throw new ApiHttpError(429, `Too many support requests; retry in ${decision.retryAfter} s`);
      const files = decodeAttachments(input.attachments ?? []);
      return c.json(await openTicket(deps, caller.userId, input, files), 200);
    },
  );

  return app;
}
