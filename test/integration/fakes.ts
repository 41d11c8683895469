import { createHmac } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';

// Stand-ins for the third parties the server talks to and the test machine cannot reach: an
// SMTP server, an OAuth provider and Stripe's API. Each speaks just enough of the real
// protocol for the server's adapter, which is the code under test.

async function listening(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const closeServer = (server: { close(cb: () => void): unknown }) => new Promise<void>((resolve) => server.close(() => resolve()));

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

/** Minimal SMTP server (no TLS, no auth) that keeps what it receives. */
export async function fakeSmtpServer() {
  const received: ReceivedMail[] = [];
  const server = createTcpServer((socket) => {
    let buffer = '';
    let inData = false;
    let mail: ReceivedMail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake-smtp ready');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while ((index = inData ? buffer.indexOf('\r\n.\r\n') : buffer.indexOf('\r\n')) >= 0) {
        if (inData) {
          mail.data = buffer.slice(0, index);
          buffer = buffer.slice(index + 5);
          inData = false;
          received.push(mail);
          mail = { from: '', to: [], data: '' };
          reply('250 OK: queued');
          continue;
        }
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') mail.from = line.replace(/^MAIL FROM:\s*/i, '');
        if (verb === 'RCPT') mail.to.push(line.replace(/^RCPT TO:\s*/i, ''));
        if (verb === 'DATA') inData = true;
        reply(
          verb === 'EHLO' || verb === 'HELO'
            ? '250 fake-smtp'
            : verb === 'DATA'
              ? '354 End data with <CR><LF>.<CR><LF>'
              : verb === 'QUIT'
                ? '221 Bye'
                : '250 OK',
        );
        if (verb === 'QUIT') socket.end();
      }
    });
  });
  const port = await listening(server);
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => closeServer(server) };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

export interface FakeOAuthUser {
  id: number | string;
  login?: string;
  name?: string;
  email?: string | null;
  /** Answer of /user/emails (GitHub style). */
  emails?: Array<{ email: string; primary: boolean; verified: boolean }>;
}

/** An OAuth provider: /token trades the code `good-code` for a token, /user describes `user`. */
export async function fakeOAuthProvider() {
  const state = {
    user: { id: 4242, login: 'octocat', name: 'Octo Cat', email: null } as FakeOAuthUser,
    tokenRequests: [] as URLSearchParams[],
  };
  const server = createHttpServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === '/token') {
      const params = new URLSearchParams(await readBody(req));
      state.tokenRequests.push(params);
      if (params.get('code') !== 'good-code')
        return send(400, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
      return send(200, { access_token: 'provider-access-token', token_type: 'bearer', scope: 'user:email' });
    }
    if (req.headers.authorization !== 'Bearer provider-access-token') return send(401, { message: 'Bad credentials' });
    if (url.pathname === '/user') {
      const { emails: _emails, ...user } = state.user;
      return send(200, user);
    }
    if (url.pathname === '/user/emails') return send(200, state.user.emails ?? []);
    send(404, { message: 'Not Found' });
  });
  const port = await listening(server);
  const base = `http://127.0.0.1:${port}`;
  return { base, state, close: () => closeServer(server) };
}

export interface StripeCall {
  method: string;
  path: string;
  params: URLSearchParams;
}

/** Stripe's REST API as the adapter uses it: checkout sessions and subscriptions. */
export async function fakeStripe() {
  const calls: StripeCall[] = [];
  let counter = 0;
  const server = createHttpServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const params = new URLSearchParams(await readBody(req));
    calls.push({ method: req.method ?? 'GET', path: url.pathname, params });
    res.setHeader('Content-Type', 'application/json');
    if (req.headers.authorization !== 'Bearer sk_test_fake') {
      res.writeHead(401);
      return res.end(JSON.stringify({ error: { message: 'Invalid API Key provided' } }));
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const id = `cs_test_${++counter}`;
      return res.end(JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}` }));
    }
    if (url.pathname.startsWith('/v1/subscriptions/')) {
      const id = url.pathname.split('/').pop();
      // Its one item, whose product a plan change's new price_data must name (as Stripe requires).
      const items = { object: 'list', data: [{ id: `si_${id}`, object: 'subscription_item', price: { product: `prod_${id}` } }] };
      return res.end(JSON.stringify({ id, object: 'subscription', status: req.method === 'DELETE' ? 'canceled' : 'active', items }));
    }
    res.writeHead(404);
    res.end(JSON.stringify({ error: { message: 'Unrecognized request URL' } }));
  });
  const port = await listening(server);
  return { base: `http://127.0.0.1:${port}`, calls, close: () => closeServer(server) };
}

/** Posts `event` to the server's Stripe webhook, signed with `secret` as Stripe signs it. */
export function signedStripeWebhook(serverUrl: string, secret: string, event: unknown) {
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return fetch(`${serverUrl}/v1/payment/webhook/stripe`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': `t=${t},v1=${signature}` },
    body,
  });
}
