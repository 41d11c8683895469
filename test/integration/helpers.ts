import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { inject } from 'vitest';
import { createPlatformClients } from '../../src/api';
import type { Db } from '../../reference-app/server/db';

// Shared by the server tests: the unit run's platform server (globalSetup), the unmodified
// supabase-js client, the dev mailbox, and users signed up and confirmed through the real flow.

export interface Target {
  url: string;
  authKey: string;
}

export const globalServer = (): Target => ({ url: inject('platformUrl'), authKey: inject('authKey') });

export const DEMO = { email: 'demo@limelight.dev', password: 'limelight-demo' };
export const PUBLISHER = { email: 'publisher@limelight.dev', password: 'limelight-publisher' };
export const DEMO_ID = 'de30de30-0000-4000-8000-000000000002';
export const PUBLISHER_ID = 'b0b1b0b1-0000-4000-8000-000000000003';

/**
 * supabase-js builds a realtime client eagerly and, on Node 20, wants a WebSocket for it. These
 * tests never open realtime channels; this stand-in fails loudly if anything tries.
 */
class NoRealtimeSocket {
  constructor() {
    throw new Error('realtime is not used by the platform server tests');
  }
}

export function supabase(
  target: Target = globalServer(),
  options: { flowType?: 'implicit' | 'pkce'; detectSessionInUrl?: boolean } = {},
): SupabaseClient {
  return createClient(target.url, target.authKey, {
    realtime: { transport: NoRealtimeSocket as never },
    auth: {
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: options.detectSessionInUrl ?? false,
      flowType: options.flowType ?? 'implicit',
    },
  });
}

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 12)}@example.test`;

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  created_at: string;
}

export async function mailbox(target: Target, to: string): Promise<Mail[]> {
  const response = await fetch(`${target.url}/dev/mailbox.json?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`mailbox ${response.status}`);
  return (await response.json()) as Mail[];
}

/** The newest message to `to` (waits briefly: mail goes out right after the response). */
export async function latestMail(target: Target, to: string, count = 1): Promise<Mail> {
  for (let i = 0; i < 50; i++) {
    const mails = await mailbox(target, to);
    if (mails.length >= count) return mails[0]!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to}`);
}

export const verifyLinkOf = (mail: Mail) => {
  const link = mail.links.find((l) => l.includes('/auth/v1/verify'));
  if (!link) throw new Error(`no verify link in ${mail.subject}`);
  return link;
};

/** Follows a link without following its redirect; returns status and Location. */
export async function follow(link: string, init: RequestInit = {}): Promise<{ status: number; location: URL }> {
  const response = await fetch(link, { redirect: 'manual', ...init });
  const location = response.headers.get('location');
  if (!location) throw new Error(`no Location (status ${response.status})`);
  return { status: response.status, location: new URL(location) };
}

export const fragmentOf = (url: URL) => new URLSearchParams(url.hash.slice(1));

/** Signs up through supabase-js and confirms through the mailed link; returns credentials. */
export async function confirmedUser(target: Target = globalServer(), label = 'user'): Promise<{ email: string; password: string }> {
  const email = uniqueEmail(label);
  const password = `pw-${randomUUID()}`;
  const { error } = await supabase(target).auth.signUp({ email, password });
  if (error) throw error;
  const { status } = await follow(verifyLinkOf(await latestMail(target, email)));
  if (status !== 303) throw new Error(`confirmation answered ${status}`);
  return { email, password };
}

/** A signed-in supabase-js client and its session. */
export async function signedIn(target: Target, credentials: { email: string; password: string }) {
  const client = supabase(target);
  const { data, error } = await client.auth.signInWithPassword(credentials);
  if (error) throw error;
  return { client, session: data.session!, user: data.user! };
}

/** The platform API clients of src/api, with a fixed token (or none). */
export function apiClients(target: Target, token: string | null) {
  return createPlatformClients({ baseURL: target.url, getAccessToken: () => token });
}

/** A raw API call, for what the clients never send (no token, malformed bodies). */
export async function rawApi(
  target: Target,
  method: string,
  path: string,
  init: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['Content-Type'] = 'application/json';
  } else if (init.rawBody !== undefined) {
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${target.url}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json: json as Record<string, unknown> & Array<Record<string, unknown>>, headers: response.headers };
}

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request with exactly these headers (fetch would add Accept-Encoding and decode). */
export function rawGet(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Puts the user on a paid plan (its limits: docs/jobs.md, docs/publishing.md) as an active sandbox
 * subscription does; the payment flow that creates one is tested in payments/.
 */
export async function subscribe(db: Db, userId: string, plan: 'plus' | 'pro' | 'enterprise') {
  await db
    .insertInto('subscriptions')
    .values({
      user_id: userId,
      plan_type: plan,
      status: 'active',
      provider: 'sandbox',
      cancel_at_period_end: false,
      current_period_end: null,
    })
    .execute();
}
