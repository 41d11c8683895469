import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

// Who is calling. Behind TRUST_PROXY=N proxies, each proxy appends the address it received the
// request from to X-Forwarded-For, so only the right-most N entries were written by machines we
// trust; everything further left was written by the client and may be anything. The client is
// therefore the N-th address from the right of [X-Forwarded-For..., socket peer], never the
// left-most entry (which an attacker sets to a new value on every request to dodge limits).

/** The socket's peer address; `local` for requests dispatched in-process (app.request). */
function peerAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'local';
  }
}

const forwardedEntries = (header: string | undefined) =>
  (header ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The address `proxyHops` trusted proxies vouch for. With fewer entries than proxies (a request
 * that skipped a proxy) the left-most one we have is the best we know.
 */
export function clientAddressFrom(forwardedFor: string | undefined, peer: string, proxyHops: number): string {
  if (proxyHops <= 0) return peer;
  const chain = [...forwardedEntries(forwardedFor), peer];
  return chain[Math.max(0, chain.length - 1 - proxyHops)]!;
}

/** The client's IP address, as rate limits, sessions and MFA challenges record it. */
export function clientIp(c: Context, proxyHops: number): string {
  return clientAddressFrom(c.req.header('x-forwarded-for'), peerAddress(c), proxyHops);
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/**
 * True only for a request from this machine that no proxy relayed: a loopback peer carrying
 * forwarding headers is a local reverse proxy passing on someone else's request.
 */
export function isLoopbackClient(c: Context, proxyHops: number): boolean {
  const forwarded = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((name) => c.req.header(name) !== undefined);
  if (forwarded && proxyHops <= 0) return false;
  return LOOPBACK.test(clientIp(c, proxyHops));
}

/** The scheme the client used: the socket's, or with trusted proxies the right-most X-Forwarded-Proto. */
export function requestProtocol(request: Pick<Request, 'url' | 'headers'>, proxyHops: number): 'http' | 'https' {
  if (proxyHops > 0) {
    const proto = forwardedEntries(request.headers.get('x-forwarded-proto') ?? undefined)
      .at(-1)
      ?.toLowerCase();
    if (proto === 'https' || proto === 'http') return proto;
  }
  // A Request's URL is normalised: its scheme is lower case.
  return request.url.startsWith('https:') ? 'https' : 'http';
}
