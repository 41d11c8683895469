import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { declaredBody } from './bodyLimit';

// Text PostgreSQL cannot store, refused at the door with a 400 that names the field, before any
// handler can turn it into a 500: NUL characters (text columns reject them), lone UTF-16
// surrogates (jsonb rejects their \u escapes), malformed %-escapes and overlong query values.
// Handlers still validate what they read; this guard only removes the inputs no handler expects.

/** Longest query value or path segment accepted; links and tokens stay far below. */
export const MAX_QUERY_VALUE_LENGTH = 8192;
/** Bodies larger than the largest route limit are not read here; the routes answer 413. */
const MAX_GUARDED_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Deepest nesting of arrays and objects a JSON body may have. Service documents and job inputs
 * need a handful of levels; thousands overflow the stack of every recursive reader after this.
 */
export const MAX_JSON_DEPTH = 64;

export class BadInputError extends Error {
  override name = 'BadInputError';
}

// In a /u pattern a proper surrogate pair is one code point, so only unpaired halves match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Why a decoded string cannot be stored, or undefined when it can. */
function unstorable(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'must not contain unpaired UTF-16 surrogates';
  return undefined;
}

function decodeComponent(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw new BadInputError(`${what}: malformed percent-escape`);
  }
}

/** Checks `a=1&b=2` (a query string or a form body); names the parameter at fault. */
export function checkQueryString(search: string, where = 'query parameter'): void {
  for (const pair of search.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq), `${where} name`);
    // JSON.stringify escapes control characters, so the name is safe to echo.
    const label = `${where} ${JSON.stringify(name.slice(0, 64))}`;
    const nameProblem = unstorable(name);
    if (nameProblem) throw new BadInputError(`${where} name ${nameProblem}`);
    const value = eq < 0 ? '' : decodeComponent(pair.slice(eq + 1), label);
    const problem = unstorable(value);
    if (problem) throw new BadInputError(`${label} ${problem}`);
    if (value.length > MAX_QUERY_VALUE_LENGTH) {
      throw new BadInputError(`${label} is too long: at most ${MAX_QUERY_VALUE_LENGTH} characters`);
    }
  }
}

export function checkPath(path: string): void {
  for (const segment of path.split('/')) {
    const decoded = decodeComponent(segment, 'path');
    const problem = unstorable(decoded);
    if (problem) throw new BadInputError(`path ${problem}`);
    if (decoded.length > MAX_QUERY_VALUE_LENGTH)
      throw new BadInputError(`path segment is too long: at most ${MAX_QUERY_VALUE_LENGTH} characters`);
  }
}

/** Walks parsed JSON; names the first field (dotted path) holding an unstorable string. */
export function checkJsonValue(value: unknown, at = 'body'): void {
  if (typeof value === 'string') {
    const problem = unstorable(value);
    if (problem) throw new BadInputError(`${at} ${problem}`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => checkJsonValue(item, `${at}[${i}]`));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const problem = unstorable(key);
      if (problem) throw new BadInputError(`${at}: a field name ${problem}`);
      checkJsonValue(item, at === 'body' ? key : `${at}.${key}`);
    }
  }
}

/**
 * The deepest nesting of arrays and objects in JSON text, counted in one pass that skips strings
 * (no parse: this runs on every body). Stops counting past `limit`.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** A number JSON.parse turns into Infinity: an exponent of three digits or a run of 309 digits. */
const MAYBE_OVERFLOW = /\d[eE][+-]?\d{3}|\d{309}/;

/** Names the first field (dotted path) holding a number too large for a double (Infinity), which JSON would store as null. */
function checkFiniteNumbers(value: unknown, at = 'body'): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new BadInputError(`${at} is a number too large to store (at most about 1.8e308); send a smaller number`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => checkFiniteNumbers(item, `${at}[${i}]`));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) checkFiniteNumbers(item, at === 'body' ? key : `${at}.${key}`);
  }
}

/** Raw text may only hide NUL or surrogates in \u escapes (or a raw NUL); parse only then. */
export function checkBodyText(text: string, contentType: string): void {
  if (/application\/x-www-form-urlencoded/i.test(contentType)) return checkQueryString(text, 'form field');
  if (text.includes('\u0000')) throw new BadInputError('body must not contain NUL characters');
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new BadInputError(`body is nested too deeply: arrays and objects may nest at most ${MAX_JSON_DEPTH} levels`);
  }
  const escapes = /\\u/i.test(text);
  const overflow = MAYBE_OVERFLOW.test(text);
  if (!escapes && !overflow) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return; // not JSON: the route answers it as such
  }
  if (escapes) checkJsonValue(parsed);
  if (overflow) checkFiniteNumbers(parsed);
}

/**
 * The path and the query string (without `?`) of a request URL as the server built it, the
 * `pathname` and `search` of `new URL(url)` without parsing the whole URL again per request.
 */
export function pathAndQuery(url: string): { path: string; query: string } {
  const start = url.indexOf('/', url.indexOf('://') + 3);
  if (start < 0) return { path: '/', query: '' };
  const hash = url.indexOf('#', start);
  const end = hash < 0 ? url.length : hash;
  const question = url.indexOf('?', start);
  if (question < 0 || question > end) return { path: url.slice(start, end), query: '' };
  return { path: url.slice(start, question), query: url.slice(question + 1, end) };
}

// Text with no %-escape decodes to itself (bar `+` to a space), so when it holds no NUL, no
// surrogate and is no longer than the limit, no part of it can fail the checks above.
const plainWithin = (text: string) => text.length <= MAX_QUERY_VALUE_LENGTH && !text.includes('%') && !unstorable(text);

/**
 * The guard for the API prefixes. `answer` shapes the 400 (GoTrue's error body on /auth/v1,
 * `{ detail }` elsewhere). Bodies are read through a size limit, so a chunked upload cannot make
 * the guard buffer more than the largest route would accept.
 */
/** Runs a check: the BadInputError's message when it refuses the input, undefined when it passes. */
function refusalOf(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof BadInputError) return error.message;
    throw error;
  }
}

export function inputGuard(answer: (c: Context, message: string) => Response): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: MAX_GUARDED_BODY_BYTES,
    onError: (c) =>
      c.json({ detail: `Request body too large: the limit is ${MAX_GUARDED_BODY_BYTES} bytes` }, 413, { Connection: 'close' }),
  });
  return async (c, next) => {
    const urlRefusal = refusalOf(() => {
      const { path, query } = pathAndQuery(c.req.url);
      if (!plainWithin(path)) checkPath(path);
      if (!plainWithin(query)) checkQueryString(query);
    });
    if (urlRefusal) return answer(c, urlRefusal);
    // GET and HEAD carry no body (@hono/node-server never gives them one). A body with a
    // declared length is read once through @hono/node-server's fast path (c.req.text() straight
    // from the socket, kept for the route's validator): asking for `c.req.raw.body` would build a
    // full web Request with its stream and abort signal (docs/jobs.md, "What makes the path fast").
    const body = declaredBody(c);
    if (body === 'none') return next();
    const contentType = c.req.header('content-type') ?? '';
    if (/multipart\/form-data/i.test(contentType)) return next();
    if (body !== 'chunked') {
      // Larger than any route accepts: the route's own limit answers 413 unread.
      if (body.length > MAX_GUARDED_BODY_BYTES) return next();
      const text = await c.req.text();
      const bodyRefusal = refusalOf(() => checkBodyText(text, contentType));
      return bodyRefusal ? answer(c, bodyRefusal) : next();
    }
    let refused: Response | undefined;
    const checked = await limit(c, async () => {
      const text = await c.req.text();
      // The routes' own body limits read the stream again; hand them a fresh one.
      c.req.raw = new Request(c.req.raw, { body: text });
      const bodyRefusal = refusalOf(() => checkBodyText(text, contentType));
      if (bodyRefusal) refused = answer(c, bodyRefusal);
    });
    if (checked instanceof Response) return checked; // 413 from the limit
    return refused ?? next();
  };
}
