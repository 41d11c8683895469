import { Hono } from 'hono';
import type { Db } from '../db/types';
import { isLoopbackClient } from '../http/clientIp';
import { PLATFORM_REQUEST_HEADER } from '../http/platformRequest';
import { selectMailMessages } from './queries';
import { escapeHtml } from './templates';

// The dev mailbox (no SMTP_URL, never with NODE_ENV=production): every message the server sent,
// newest first, as JSON for tests (/dev/mailbox.json?to=<address>) and as a page for people
// (/dev/mailbox). It holds sign-in links and reset codes, so it answers only requests made on
// this machine: a loopback peer with no forwarding headers (or, behind TRUST_PROXY, whose
// trusted client address is loopback).

export function mailboxRoutes(db: Db, proxyHops: number) {
  const app = new Hono();

  app.use('*', async (c, next) => {
    // The platform's own outgoing requests (a service URL, webhook or import pointed back at this
    // machine) are loopback too, but act for whoever chose the URL.
    if (c.req.header(PLATFORM_REQUEST_HEADER) !== undefined) {
      return c.json({ detail: 'The dev mailbox does not answer requests the platform itself makes' }, 403);
    }
    if (!isLoopbackClient(c, proxyHops)) {
      return c.json({ detail: 'The dev mailbox answers only requests from this machine (loopback)' }, 403);
    }
    await next();
  });

  app.get('/mailbox.json', async (c) => {
    const rows = await selectMailMessages(db, c.req.query('to'));
    c.header('Cache-Control', 'no-store');
    return c.json(
      rows.map((r) => ({
        to: r.to_address,
        subject: r.subject,
        text: r.text_body,
        html: r.html_body,
        links: r.links,
        created_at: r.created_at.toISOString(),
      })),
    );
  });

  app.get('/mailbox', async (c) => {
    const to = c.req.query('to')?.trim() ?? '';
    const rows = await selectMailMessages(db, to || undefined);
    const items = rows
      .map(
        (
          r,
        ) => `<article><header><strong>${escapeHtml(r.subject)}</strong><br><small>to <a href="?to=${encodeURIComponent(r.to_address)}">${escapeHtml(r.to_address)}</a> · ${escapeHtml(r.created_at.toISOString())}</small></header>
<iframe sandbox="" title="${escapeHtml(r.subject)}" srcdoc="${escapeHtml(r.html_body)}"></iframe>
<ul>${r.links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join('')}</ul></article>`,
      )
      .join('');
    c.header('Cache-Control', 'no-store');
    return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title><style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:900px;padding:24px;background:#f6f4f9;color:#1b1226}
article{background:#fff;border-radius:8px;padding:16px;margin:16px 0;box-shadow:0 1px 3px #0002}
iframe{width:100%;height:320px;border:1px solid #ddd;border-radius:4px;margin-top:8px}
</style></head><body><h1>Dev mailbox</h1>
<p>Mail the server sent while no SMTP_URL is set. JSON: <a href="/dev/mailbox.json">/dev/mailbox.json</a>.</p>
<form><label>Recipient <input name="to" value="${escapeHtml(to)}" type="email"></label> <button>Filter</button> <a href="/dev/mailbox">All</a></form>
${items || '<p>No messages.</p>'}</body></html>`);
  });

  return app;
}
