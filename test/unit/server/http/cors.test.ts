import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { CORS_ALLOW_HEADERS, corsMiddleware } from '../../../../reference-app/server/http/cors';

// CORS for embedding sites (http/cors.ts): the headers are written onto the route's final
// answer after it ran, so Hono never rebuilds the answer around a stream (docs/deploy.md,
// "Throughput"). The whole server's CORS is also exercised in auth-config.test.ts.

const SITE = 'http://127.0.0.1:3000';
const EMBED = 'https://embed.example';

function app(corsOrigins: string[] | '*') {
  const hono = new Hono();
  hono.use('*', corsMiddleware({ publicUrl: SITE, corsOrigins }));
  hono.get('/data', (c) => c.json({ ok: true }, 200, { Vary: 'Accept-Encoding' }));
  hono.get('/broken', () => {
    throw new Error('broken route');
  });
  hono.onError((_error, c) => c.json({ detail: 'Internal Server Error' }, 500));
  return hono;
}

describe('CORS', () => {
  it('grants a listed origin on the answer, keeps the route’s Vary and adds Origin to it', async () => {
    const answer = await app([EMBED]).request('/data', { headers: { Origin: EMBED } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true });
    expect(answer.headers.get('access-control-allow-origin')).toBe(EMBED);
    expect(answer.headers.get('access-control-expose-headers')).toBe(
      'X-Supabase-Api-Version,Retry-After,Location,Idempotent-Replayed,Preference-Applied',
    );
    expect(answer.headers.get('vary')).toBe('Accept-Encoding, Origin');
  });

  it('grants the site itself, and nobody else', async () => {
    expect((await app([EMBED]).request('/data', { headers: { Origin: SITE } })).headers.get('access-control-allow-origin')).toBe(SITE);
    const other = await app([EMBED]).request('/data', { headers: { Origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toBe('Accept-Encoding, Origin');
    expect((await app([EMBED]).request('/data')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with CORS_ORIGINS=* echoes any origin, or * without one', async () => {
    expect(
      (await app('*').request('/data', { headers: { Origin: 'https://any.example' } })).headers.get('access-control-allow-origin'),
    ).toBe('https://any.example');
    expect((await app('*').request('/data')).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('grants error answers too, so the embedding page can read them', async () => {
    const answer = await app([EMBED]).request('/broken', { headers: { Origin: EMBED } });
    expect(answer.status).toBe(500);
    expect(answer.headers.get('access-control-allow-origin')).toBe(EMBED);
  });

  it('answers a preflight itself with 204, the methods, the headers supabase-js sends and a max age', async () => {
    const preflight = await app([EMBED]).request('/data', {
      method: 'OPTIONS',
      headers: { Origin: EMBED, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, apikey' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(EMBED);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(CORS_ALLOW_HEADERS.join(','));
    expect(preflight.headers.get('access-control-max-age')).toBe('600');
    expect(preflight.headers.get('vary')).toBe('Origin, Access-Control-Request-Headers');
    expect(preflight.headers.get('content-type')).toBeNull();
    const refused = await app([EMBED]).request('/data', { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } });
    expect(refused.status).toBe(204);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});
