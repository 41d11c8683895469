import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer, OutgoingMail } from '../../../reference-app/server/mail';
import { contentTypeOfKey, createFileMediaStore } from '../../../reference-app/server/media';
import { MailOutbox, retryDelayMs } from '../../../reference-app/server/support';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { apiClients, confirmedUser, latestMail, signedIn, supabase } from '../helpers';

// Support requests under abuse and failure (docs/security.md, "Platform API"): attachments go
// to the media store on disk, not the database; a ticket whose mail fails is saved, answered
// with success and mailed later from the outbox; a client's retry does not open a second one;
// the per-user rate is low.

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n');

let server: PlatformTestServer;
beforeAll(async () => {
  server = await startPlatformServer();
});
afterAll(() => server?.close());

async function helpSeeker(target: { url: string; authKey: string } = server) {
  const { session } = await signedIn(target, await confirmedUser(target, 'help'));
  return { api: apiClients(target, session.access_token).support, userId: session.user.id, email: session.user.email! };
}

const db = () => server.platform.database.db;

describe('attachments in the media store', () => {
  it('stores files on disk, not in the database, and serves them with safe headers', async () => {
    const { api, email } = await helpSeeker();
    const sent = await api.contactSupport({
      topic: 'bug',
      subject: 'Broken upload',
      message: 'See attached',
      attachments: [
        { filename: 'screen.png', content_type: 'image/png', data_base64: PNG.toString('base64') },
        { filename: 'invoice.pdf', content_type: 'application/pdf', data_base64: PDF.toString('base64') },
      ],
    });
    if (!sent.ok) throw new Error(sent.error);
    const rows = await db()
      .selectFrom('support_attachments')
      .selectAll()
      .where('ticket_id', '=', sent.data.id)
      .orderBy('filename')
      .execute();
    expect(rows.map((r) => [r.filename, r.data, r.size_bytes])).toEqual([
      ['invoice.pdf', null, PDF.length],
      ['screen.png', null, PNG.length],
    ]);
    const [pdf, png] = rows.map((r) => r.media_key!);
    expect(existsSync(path.join(server.platform.config.dataDir, 'media', png!.slice(0, 2), png!))).toBe(true);

    const image = await fetch(`${server.url}/media/files/${png}`);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    expect(
      Object.fromEntries(['content-type', 'x-content-type-options', 'content-disposition'].map((h) => [h, image.headers.get(h)])),
    ).toEqual({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline',
    });
    const document = await fetch(`${server.url}/media/files/${pdf}`);
    expect(document.headers.get('content-type')).toBe('application/pdf');
    expect(document.headers.get('content-disposition')).toBe(`attachment; filename="${pdf}"`);
    expect(document.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");

    // The team's mail links the files; the user's acknowledgement arrives too.
    const team = await latestMail(server, 'support@limelight.dev');
    expect(team.text).toContain(`${server.url}/media/files/${png}`);
    expect((await latestMail(server, email)).subject).toMatch(/Broken upload/);
  });

  it('answers 404 for unknown and malformed keys (no way out of the media folder)', async () => {
    for (const key of ['AAAAAAAAAAAAAAAAAAAAAAAA.png', '..%2F..%2Fsecret.key', 'x.png', '%2E%2E%2Fpglite']) {
      expect({ key, status: (await fetch(`${server.url}/media/files/${key}`)).status }).toEqual({ key, status: 404 });
    }
  });

  it('the store: put, get, delete; keys name their type and cannot be forged into paths', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'media-'));
    try {
      const store = createFileMediaStore(dir, 'https://lime.example');
      const stored = await store.put(new TextEncoder().encode('a,b\n1,2\n'), 'text/csv; charset=utf-8');
      expect(stored).toEqual({
        key: expect.stringMatching(/^[A-Za-z0-9_-]{24}\.csv$/),
        url: `https://lime.example/media/files/${stored.key}`,
        size: 8,
      });
      const file = await store.get(stored.key);
      expect(file && { type: file.contentType, size: file.size, text: await new Response(file.body).text() }).toEqual({
        type: 'text/csv',
        size: 8,
        text: 'a,b\n1,2\n',
      });
      expect((await store.put(new Uint8Array([1]), 'application/x-unknown')).key).toMatch(/\.bin$/);
      await store.delete(stored.key);
      expect(await store.get(stored.key)).toBeUndefined();
      expect(contentTypeOfKey('../../etc/passwd')).toBeUndefined();
      expect(await store.get('../../../../etc/hostname')).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('rate and retries', () => {
  it('a user may open 10 tickets per window; the 11th is 429', async () => {
    const { api } = await helpSeeker();
    for (let i = 0; i < 10; i++) {
      expect(await api.contactSupport({ topic: 'other', subject: `Question ${i}`, message: 'Hello' })).toMatchObject({ ok: true });
    }
    expect(await api.contactSupport({ topic: 'other', subject: 'One more', message: 'Hello' })).toMatchObject({
      ok: false,
      status: 429,
      error: expect.stringMatching(/^Too many support requests; retry in \d+ s$/),
    });
  });

  it('the same request sent again (a client retry) returns the first ticket', async () => {
    const { api, userId } = await helpSeeker();
    const request = { topic: 'billing', subject: 'Twice', message: 'Sent on a flaky network', attachments: [] };
    const [a, b] = await Promise.all([api.contactSupport(request), api.contactSupport(request)]);
    const c = await api.contactSupport(request);
    expect(a.ok && b.ok && c.ok && new Set([a.data.id, b.data.id, c.data.id]).size).toBe(1);
    const tickets = await db().selectFrom('support_tickets').select('id').where('user_id', '=', userId).execute();
    expect(tickets).toHaveLength(1);
    expect(await api.contactSupport({ ...request, message: 'Something else' })).toMatchObject({ ok: true });
  });
});

describe('mail that fails', () => {
  let down: PlatformTestServer;
  beforeAll(async () => {
    // A port nothing listens on: every SMTP connection is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    down = await startPlatformServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAILER_AUTOCONFIRM: 'true' } });
  });
  afterAll(() => down?.close());

  it('saves the ticket, answers success and keeps both mails in the outbox for a retry', async () => {
    const email = `outbox-${Date.now()}@example.test`;
    const { data, error } = await supabase(down).auth.signUp({ email, password: 'outbox-password' });
    if (error) throw error;
    const api = apiClients(down, data.session!.access_token).support;
    const request = { topic: 'bug', subject: 'Mail is down', message: 'Still want an answer' };
    const sent = await api.contactSupport(request);
    expect(sent).toMatchObject({ ok: true, data: { id: expect.any(String) } });
    const outbox = () => down.platform.database.db.selectFrom('mail_outbox').selectAll().orderBy('to_address').execute();
    for (let i = 0; i < 50 && (await outbox()).some((m) => !m.last_error); i++) await new Promise((r) => setTimeout(r, 100));
    const rows = await outbox();
    expect(rows.map((m) => [m.to_address, m.sent_at, m.attempts])).toEqual([
      [email, null, 1],
      ['support@limelight.dev', null, 1],
    ]);
    expect(rows.every((m) => m.last_error && m.next_attempt_at.getTime() > Date.now())).toBe(true);
    // The client, unsure, retries: the same ticket, no new mail.
    expect(await api.contactSupport(request)).toMatchObject({ ok: true, data: { id: sent.ok && sent.data.id } });
    expect(await outbox()).toHaveLength(2);
  });
});

describe('the outbox', () => {
  it('retries with backoff and sends once the mailer works again', async () => {
    const sent: OutgoingMail[] = [];
    let failing = true;
    const mailer: Mailer = {
      kind: 'smtp',
      async send(mail) {
        if (failing) throw new Error('421 try again later');
        sent.push(mail);
      },
      async close() {},
    };
    const outbox = new MailOutbox(db(), mailer);
    const to = `retry-${Date.now()}@example.test`;
    await outbox.enqueue(db(), { to, subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' });
    expect(await outbox.flush()).toBe(0);
    const row = () => db().selectFrom('mail_outbox').selectAll().where('to_address', '=', to).executeTakeFirstOrThrow();
    const failed = await row();
    expect(failed).toMatchObject({ attempts: 1, sent_at: null, last_error: '421 try again later' });
    expect(failed.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + retryDelayMs(1) - 5_000);
    // Not due yet: nothing is sent, even with a working mailer.
    failing = false;
    expect(await outbox.flush()).toBe(0);
    await db()
      .updateTable('mail_outbox')
      .set({ next_attempt_at: new Date(Date.now() - 1000) })
      .where('to_address', '=', to)
      .execute();
    expect(await Promise.all([outbox.flush(), outbox.flush()])).toEqual([1, 1]);
    expect(sent.filter((m) => m.to === to)).toHaveLength(1);
    expect((await row()).sent_at).toBeInstanceOf(Date);
    expect(await outbox.flush()).toBe(0);
  });

  it('backs off 30 s, 1 min, 2 min … up to an hour', () => {
    expect([1, 2, 3, 10, 20].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 3_600_000, 3_600_000]);
  });
});
