import { WebhookVerificationError } from './errors.ts';
import type { Job } from './types.ts';

// Verifying job webhooks (Standard Webhooks): the server signs "{webhook-id}.{webhook-timestamp}.{body}"
// with HMAC-SHA256 under your whsec_ secret. Takes the raw body as a string or bytes and the
// headers as a Headers object or a plain record (Node's IncomingHttpHeaders too), so it works
// in any framework, not only with a Request. Web Crypto only: Node 20+, browsers, edge.

export interface WebhookEvent {
  type: 'job.finished' | 'job.failed' | 'job.timeout' | 'job.cancelled' | (string & {});
  timestamp: string;
  data: Job;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Seconds a message may be older or newer than now (default 300). */
  toleranceSeconds?: number;
  /** Now, in ms since the epoch (tests). */
  now?: number;
}

const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const bytesOf = (body: string | ArrayBuffer | ArrayBufferView): Uint8Array<ArrayBuffer> => {
  if (typeof body === 'string') return encoder.encode(body);
  const view = body instanceof ArrayBuffer ? new Uint8Array(body) : new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return new Uint8Array(view);
};

async function keyOf(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  let raw: Uint8Array<ArrayBuffer>;
  try {
    raw = base64ToBytes(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  } catch {
    throw new WebhookVerificationError('The webhook secret is not whsec_<base64>');
  }
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

function signedContent(id: string, timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix);
  out.set(body, prefix.length);
  return out;
}

/** The `webhook-signature` header value of a message (tests, forwarding). */
export async function sign(body: string | ArrayBuffer | ArrayBufferView, id: string, timestamp: number, secret: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await keyOf(secret, 'sign'), signedContent(id, String(timestamp), bytesOf(body)));
  return `v1,${btoa(String.fromCharCode(...new Uint8Array(mac)))}`;
}

/**
 * The parsed event when the signature matches and the timestamp is within the tolerance;
 * throws WebhookVerificationError otherwise. Pass the body exactly as received, before parsing.
 */
export async function verify(
  body: string | ArrayBuffer | ArrayBufferView,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header');
  }
  const sentAt = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(sentAt)) throw new WebhookVerificationError('webhook-timestamp is not a number');
  const tolerance = options.toleranceSeconds ?? 300;
  const skew = Math.abs((options.now ?? Date.now()) / 1000 - sentAt);
  if (skew > tolerance) {
    throw new WebhookVerificationError(`webhook-timestamp is ${Math.round(skew)} s from now; the tolerance is ${tolerance} s`);
  }
  const bytes = bytesOf(body);
  const key = await keyOf(secret, 'verify');
  const content = signedContent(id, timestamp, bytes);
  for (const candidate of signatures.split(' ')) {
    const [version, signature] = candidate.split(',', 2);
    if (version !== 'v1' || !signature) continue;
    let mac: Uint8Array<ArrayBuffer>;
    try {
      mac = base64ToBytes(signature);
    } catch {
      continue;
    }
    // crypto.subtle.verify compares in constant time.
    if (await crypto.subtle.verify('HMAC', key, mac, content)) return JSON.parse(new TextDecoder().decode(bytes)) as WebhookEvent;
  }
  throw new WebhookVerificationError('No webhook-signature matches: the body or headers were changed, or the secret is wrong');
}

export const webhooks = { verify, sign };
