import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The client's IP address: the socket's peer, or with TRUST_PROXY the left-most address of
 * X-Forwarded-For (set by the load balancer in front of several servers).
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // Requests dispatched in-process (app.request) have no socket.
    return 'local';
  }
}
