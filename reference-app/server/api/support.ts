import { createHmac } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { safeEqual } from '../crypto/tokens';
import { clientIp } from '../http/clientIp';
import { escapeHtml, newsletterWelcomeMail, supportAckMail, supportTeamMail } from '../mail/templates';
import { authenticate, requireCaller } from './caller';
import type { ApiDeps } from './deps';
import { ApiHttpError, invalid } from './errors';
import { bearer, body, errors, json, type ApiApp } from './openapi';
import {
  IdResultSchema,
  MAX_ATTACHMENT_BYTES,
  MAX_TOTAL_ATTACHMENT_BYTES,
  NewsletterSchema,
  SubscriptionOptionSchema,
  SupportSchema,
} from './schemas';

// /v1/support/ (spec §7): newsletter options and (un)subscription, open to everyone; the
// contact form, which needs a token and accepts a few attachments of safe types.

const tags = ['support'];

/** Proves an unsubscribe link was made by this server for that address. */
export function unsubscribeToken(linkKey: Buffer, email: string): string {
  return createHmac('sha256', linkKey).update(`unsubscribe:${email.toLowerCase()}`).digest('base64url');
}

/** Leading bytes that files of a type must start with; types not listed are not sniffed. */
const SIGNATURES: Record<string, number[][]> = {
  'image/png': [[0x89, 0x50, 0x4e, 0x47]],
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/gif': [[0x47, 0x49, 0x46, 0x38]],
  'image/webp': [[0x52, 0x49, 0x46, 0x46]],
  'application/pdf': [[0x25, 0x50, 0x44, 0x46]],
  'application/zip': [
    [0x50, 0x4b, 0x03, 0x04],
    [0x50, 0x4b, 0x05, 0x06],
  ],
};

function decodeAttachment(index: number, file: { filename: string; content_type: string; data_base64: string }): Buffer {
  const field = `attachments.${index}`;
  const clean = file.data_base64.replace(/\s+/g, '').replace(/^data:[^,]*,/, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean) || clean.length === 0) throw invalid(`${field}.data_base64: must be non-empty base64`);
  const data = Buffer.from(clean, 'base64');
  if (data.length > MAX_ATTACHMENT_BYTES)
    throw new ApiHttpError(413, `${field}: ${file.filename} is ${data.length} bytes; the limit is ${MAX_ATTACHMENT_BYTES} (5 MB)`);
  const signatures = SIGNATURES[file.content_type];
  if (signatures && !signatures.some((sig) => sig.every((byte, i) => data[i] === byte))) {
    throw invalid(`${field}: ${file.filename} is not a ${file.content_type} file`);
  }
  return data;
}

export function registerSupport(app: ApiApp, deps: ApiDeps) {
  const { db, config, mailer } = deps;

  async function knownOptions(ids: number[]): Promise<Map<number, string>> {
    const rows = ids.length
      ? await db.selectFrom('newsletter_options').select(['id', 'display_value']).where('id', 'in', ids).execute()
      : [];
    return new Map(rows.map((r) => [r.id, r.display_value]));
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/support/subscription_options',
      tags,
      summary: 'Newsletter topics one can subscribe to',
      responses: { 200: json(z.array(SubscriptionOptionSchema), 'Options') },
    }),
    async (c) => c.json(await db.selectFrom('newsletter_options').selectAll().orderBy('id').execute(), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/support/subscribe_newsletter',
      tags,
      summary: 'Subscribes an address to the given topics (idempotent) and sends a welcome mail',
      request: body(NewsletterSchema),
      responses: { 200: json(z.object({ subscribed: z.array(z.number()) }), 'Topics now subscribed'), ...errors(422, 429) },
    }),
    async (c) => {
      const { email, products } = c.req.valid('json');
      const ids = [...new Set(products)].sort((a, b) => a - b);
      if (!ids.length) throw invalid('products: choose at least one option');
      const known = await knownOptions(ids);
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length) throw invalid(`products: unknown subscription option ${unknown.join(', ')}`);
      const address = email.toLowerCase();
      const decision = deps.limiter.hit('newsletter', clientIp(c, config.trustProxy), config.rateLimits.emailSent);
      if (!decision.allowed) throw new ApiHttpError(429, `Too many subscriptions from your address; retry in ${decision.retryAfter} s`);
      const inserted = await db
        .insertInto('newsletter_subscriptions')
        .values(ids.map((option_id) => ({ email: address, option_id })))
        .onConflict((oc) => oc.columns(['email', 'option_id']).doNothing())
        .returning('option_id')
        .execute();
      if (inserted.length) {
        const link = new URL(`${config.publicUrl}/v1/support/unsubscribe`);
        link.searchParams.set('email', address);
        link.searchParams.set('token', unsubscribeToken(deps.linkKey, address));
        await mailer.send(
          newsletterWelcomeMail(
            config.brandName,
            address,
            inserted.map((r) => known.get(r.option_id)!),
            link.toString(),
          ),
        );
      }
      return c.json({ subscribed: ids }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/support/unsubscribe_newsletter',
      tags,
      summary: 'Unsubscribes an address from the given topics (an empty list: from all)',
      request: body(NewsletterSchema),
      responses: { 200: json(z.object({ unsubscribed: z.array(z.number()) }), 'Topics removed'), ...errors(422) },
    }),
    async (c) => {
      const { email, products } = c.req.valid('json');
      let query = db.deleteFrom('newsletter_subscriptions').where('email', '=', email.toLowerCase());
      if (products.length) query = query.where('option_id', 'in', [...new Set(products)]);
      const removed = await query.returning('option_id').execute();
      return c.json({ unsubscribed: removed.map((r) => r.option_id).sort((a, b) => a - b) }, 200);
    },
  );

  // The link in the welcome mail: a page, not JSON, because a mail client opens it.
  app.get('/support/unsubscribe', async (c) => {
    const email = (c.req.query('email') ?? '').toLowerCase();
    const token = c.req.query('token') ?? '';
    const ok = !!email && safeEqual(token, unsubscribeToken(deps.linkKey, email));
    if (ok) await db.deleteFrom('newsletter_subscriptions').where('email', '=', email).execute();
    const message = ok ? `${escapeHtml(email)} will receive no more newsletters.` : 'This unsubscribe link is invalid.';
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unsubscribe</title></head><body style="font-family:system-ui,sans-serif;padding:40px"><h1>${ok ? 'Unsubscribed' : 'Invalid link'}</h1><p>${message}</p></body></html>`,
      ok ? 200 : 400,
    );
  });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/support/support',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'Contact support; up to 5 attachments (png, jpeg, gif, webp, pdf, txt, csv, json, zip), 5 MB each, 10 MB in all',
      request: body(SupportSchema),
      responses: { 200: json(IdResultSchema, 'The ticket id'), ...errors(401, 413, 422, 429) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const input = c.req.valid('json');
      const decision = deps.limiter.hit('support', caller.userId, config.rateLimits.support);
      if (!decision.allowed) throw new ApiHttpError(429, `Too many support requests; retry in ${decision.retryAfter} s`);
      const files = (input.attachments ?? []).map((file, i) => ({ ...file, data: decodeAttachment(i, file) }));
      const total = files.reduce((sum, f) => sum + f.data.length, 0);
      if (total > MAX_TOTAL_ATTACHMENT_BYTES)
        throw new ApiHttpError(413, `attachments: ${total} bytes in all; the limit is ${MAX_TOTAL_ATTACHMENT_BYTES} (10 MB)`);
      const user = await db.selectFrom('users').select('email').where('id', '=', caller.userId).executeTakeFirst();
      if (!user) throw new ApiHttpError(404, 'No user for this token: the account was deleted');
      const ticket = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('support_tickets')
          .values({ user_id: caller.userId, topic: input.topic, subject: input.subject, message: input.message })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (files.length) {
          await trx
            .insertInto('support_attachments')
            .values(
              files.map((f) => ({
                ticket_id: row.id,
                filename: f.filename,
                content_type: f.content_type,
                size_bytes: f.data.length,
                data: f.data,
              })),
            )
            .execute();
        }
        return row;
      });
      await mailer.send(
        supportTeamMail(config.brandName, config.supportEmail, user.email, {
          ...input,
          id: ticket.id,
          attachments: files.map((f) => `${f.filename} (${f.data.length} bytes)`),
        }),
      );
      await mailer.send(supportAckMail(config.brandName, user.email, ticket.id, input.subject));
      return c.json({ id: ticket.id }, 200);
    },
  );
}
