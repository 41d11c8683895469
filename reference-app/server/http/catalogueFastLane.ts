import type { CoreConfig } from '../config/core';
import type { AnswerHeaders, CatalogueCache } from './catalogueCache';
import { corsAnswerHeaders, corsGrant } from './cors';
import { pathAndQuery } from './inputGuard';
import { overHttps, securityHeaderValues } from './securityHeaders';

// Cached catalogue reads answered before Hono routes the request (docs/deploy.md,
// "Throughput"). A read the cache can answer at once goes through no router, middleware chain
// or web Headers: it is written with the same headers the middleware would have given it (the
// catalogue cache's own, CORS, security headers), built by the same functions. Anything else
// (a query string, a token not verified yet, an API key, nothing cached, a compressed copy not
// made yet, any other path or method) takes the full chain, which also fills the cache.
// test/integration/http/fast-lane.test.ts holds both ways' answers equal.

export type FastLane = (request: Request) => Response | undefined;

/** Header sets kept per kind of cached answer: the CORS grant varies with the caller's Origin. */
const MAX_SETS_PER_ANSWER = 16;

export function catalogueFastLane(
  catalogue: CatalogueCache,
  config: Pick<CoreConfig, 'publicUrl' | 'trustProxy' | 'corsOrigins'>,
): FastLane {
  const grant = corsGrant(config);
  // The complete headers, built once per kind of cached answer, CORS grant and scheme: building
  // them per request was a good part of the lane's cost. Keyed by the cache's own (frozen,
  // per-entry) header set, so they go when the entry goes.
  const complete = new WeakMap<AnswerHeaders, Map<string, AnswerHeaders>>();

  function headersFor(cached: AnswerHeaders, request: Request): AnswerHeaders {
    const origin = request.headers.get('origin');
    const https = overHttps(request, config);
    const key = `${https} ${origin ?? ''}`;
    let sets = complete.get(cached);
    if (!sets) complete.set(cached, (sets = new Map()));
    let headers = sets.get(key);
    if (!headers) {
      headers = Object.freeze({ ...cached, ...corsAnswerHeaders(grant, origin, cached.Vary), ...securityHeaderValues(https) });
      // Any Origin may be sent; only the first few get a kept set.
      if (sets.size < MAX_SETS_PER_ANSWER) sets.set(key, headers);
    }
    return headers;
  }

  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const { path, query } = pathAndQuery(request.url);
    // The input guard reads query strings; the catalogue routes take none.
    if (query) return undefined;
    const answer = catalogue.answerAtOnce(path, request);
    if (!answer) return undefined;
    return new Response(answer.body, { status: answer.status, headers: headersFor(answer.headers, request) });
  };
}
