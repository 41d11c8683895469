import type { SupportedStorage } from '@supabase/auth-js';
import { globalServer } from '../helpers';

// Helpers for the widgets' auth client (src/auth) against the integration project's shared
// platform server (its global setup, test/setup/platform-server.ts).

export const platformUrl = () => globalServer().url;
export const authKey = () => globalServer().authKey;

export { DEMO } from '../helpers';

export function memoryStorage(initial: Record<string, string> = {}): SupportedStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => (key in data ? data[key] : null),
    setItem: (key, value) => {
      data[key] = value;
    },
    removeItem: (key) => {
      delete data[key];
    },
  };
}

export interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  status: number;
}

/** A fetch that records what really goes over the wire (it still goes to the real server). */
export function recordingFetch() {
  const seen: Seen[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
    const response = await fetch(input, init);
    seen.push({ method: init?.method ?? 'GET', url, headers, status: response.status });
    return response;
  };
  return { fetch: fetchImpl, seen };
}

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export interface MailboxMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  created_at: string;
}

/** Newest-first messages of the dev mailbox for an address. */
export async function mailbox(to: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${platformUrl()}/dev/mailbox.json?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`mailbox: HTTP ${response.status}`);
  return (await response.json()) as MailboxMessage[];
}

/** Waits for a mail to `to` whose link matches `pattern`, and returns that link. */
export async function waitForLink(to: string, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const message of await mailbox(to)) {
      const link = message.links.find((l) => pattern.test(l));
      if (link) return link;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} with a link matching ${pattern}`);
}

/** Follows an e-mail link without a browser: the 303 target carries the session in its fragment. */
export async function followLink(link: string): Promise<URL> {
  const response = await fetch(link, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`link answered ${response.status} without a redirect`);
  return new URL(location, link);
}

export const waitUntil = async (check: () => boolean, timeoutMs = 5000, what = 'condition') => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A loopback URL where nothing listens (a port just released). */
export async function unreachableUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
