import { describe, expect, it } from 'vitest';
import { createJobsClient } from '../../../../src/api';
import { createAuthClient } from '../../../../src/auth/client';
import { CORS_ALLOW_HEADERS } from '../../../../reference-app/server/http/cors';

// Every header the library's clients send cross-origin must be in the server's CORS allow-list
// (http/cors.ts): a browser refuses the request after the preflight otherwise, and the widget
// reports "Offline" (ServiceRunner's Idempotency-Key did, issue 24). The clients run for real
// here, over a fetch that records what they would have sent.

// Headers a browser lets through without a preflight listing them (Fetch standard, "CORS-safelisted
// request-header"; Content-Type only for the form types, so it is not here).
const SAFELISTED = new Set(['accept', 'accept-language', 'content-language']);

function recordingFetch() {
  const sent = new Set<string>();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    for (const name of request.headers.keys()) sent.add(name.toLowerCase());
    const url = new URL(request.url);
    if (url.pathname.endsWith('/stream')) {
      const job = { id: 'j1', status: 'FINISHED', output: null };
      const body = `id: 2\nevent: job\ndata: ${JSON.stringify(job)}\n\n`;
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }
    if (url.pathname.endsWith('/token')) {
      const session = {
        access_token: 'a',
        refresh_token: 'r',
        expires_in: 3600,
        token_type: 'bearer',
        user: { id: 'u', aud: 'authenticated' },
      };
      return Response.json(session);
    }
    return Response.json({ id: 'j1', status: 'QUEUED' });
  };
  return { fetch, sent };
}

describe('CORS allow-list vs the headers the clients send', () => {
  it('allows every header of the jobs client (create with Prefer and Idempotency-Key, upload, the resumed stream)', async () => {
    const { fetch, sent } = recordingFetch();
    const jobs = createJobsClient({ baseURL: 'https://api.example', getAccessToken: () => 'token', fetch });
    await jobs.create({ service_id: 's', endpoint: '/run', input: {} }, { wait: 5, idempotencyKey: 'k-1' });
    await jobs.uploadFile(new Blob(['x']), 'x.txt');
    await jobs.subscribe('j1', { lastEventId: '1', onJob: () => {} }).done;
    expect([...sent]).toEqual(expect.arrayContaining(['idempotency-key', 'prefer', 'last-event-id', 'authorization']));
    for (const name of sent) if (!SAFELISTED.has(name)) expect(CORS_ALLOW_HEADERS, name).toContain(name);
  });

  it('allows every header of the auth client (supabase-js, unmodified)', async () => {
    const { fetch, sent } = recordingFetch();
    const auth = createAuthClient({ authUrl: 'https://auth.example', authKey: 'anon', fetch, detectSessionInUrl: false });
    await auth.signInWithPassword({ email: 'a@example.com', password: 'secret-password' });
    expect([...sent]).toEqual(expect.arrayContaining(['apikey', 'authorization', 'x-client-info']));
    for (const name of sent) if (!SAFELISTED.has(name)) expect(CORS_ALLOW_HEADERS, name).toContain(name);
  });
});
