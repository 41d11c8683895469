import { describe, expect, it } from 'vitest';
import { DEMO, globalServer, rawApi, signedIn } from '../helpers';

// An id that is 36 characters like a UUID but is not one must answer like an unknown id (404, or
// the route's 400 for a malformed parameter), never a 500 with the database's cast error in the
// log (issue 34). Every path of the platform's OpenAPI document with a parameter is tried, so a
// route added later is covered without being listed here.
const NOT_A_UUID = ['-'.repeat(36), 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', '12345678-1234-1234-1234-1234567890-x'];

describe('ids that look like UUIDs but are not', () => {
  it('every route with a path parameter answers 4xx, never 5xx', async () => {
    const target = globalServer();
    const { session } = await signedIn(target, DEMO);
    const token = session.access_token;
    const spec = (await rawApi(target, 'GET', '/v1/openapi.json')).json as unknown as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(spec.paths).filter(([path]) => path.includes('{'));
    expect(routes.length).toBeGreaterThan(3);
    // Routes outside the document that take ids: MFA factors and challenges (auth), sandbox checkouts.
    const extra: [string, string][] = [
      ['DELETE', '/auth/v1/factors/{id}'],
      ['POST', '/auth/v1/factors/{id}/challenge'],
      ['POST', '/auth/v1/factors/{id}/verify'],
      ['GET', '/sandbox/checkout/{id}'],
    ];
    const calls: [string, string][] = [
      ...routes.flatMap(([path, ops]) =>
        Object.keys(ops)
          .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
          .map((m): [string, string] => [m.toUpperCase(), `/v1${path.replace(/^\/v1/, '')}`]),
      ),
      ...extra,
    ];
    const failures: string[] = [];
    for (const bad of NOT_A_UUID) {
      for (const [method, template] of calls) {
        const path = template.replace(/\{[^}]+\}/g, encodeURIComponent(bad));
        const headers = path.startsWith('/auth/') ? { apikey: target.authKey } : undefined;
        const body = method === 'GET' || method === 'DELETE' ? undefined : { challenge_id: bad, code: '123456' };
        const answer = await rawApi(target, method, path, { token, body, headers });
        if (answer.status >= 500) failures.push(`${method} ${path}: ${answer.status}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
