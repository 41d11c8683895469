import { userRateLimitFor } from './userRateLimits';
import type { Context, Env, MiddlewareHandler } from 'hono';
import { MISSING_CREDENTIALS, type ApiCaller, type MaybeSignedInEnv } from './authenticate';
import type { RateLimits } from '../config/core';
import type { RateLimiter } from '../http/rateLimit';
import { forbidden, unauthorized } from '../errors';
import { bearer, errors, type ApiApp } from './openapi';
import type { SessionStateLookup } from './sessionState';

// Who may call a feature's routes, declared once where the feature is mounted (v1/mounts.ts), and
// the guard that enforces it. The guard runs before the routes' own middleware (body
// validation), so a stranger learns nothing about the input a route expects. The rules are
// described for users in docs/security.md ("Platform API").

export type Access =
  /** No credentials read. */
  | { auth: 'public' }
  /** A valid credential is used; a stale, broken or signed-out one counts as anonymous. */
  | { auth: 'optional' }
  /**
   * A caller is required (401 otherwise). `apiKeys`: whether `lime_…` keys may call. Keys are
   * for running, reading and publishing the caller's own services; account routes (keys, registry tokens, credits,
   * subscriptions, profile, support) refuse them, so a leaked key cannot take over an account.
   */
  | { auth: 'signed-in'; apiKeys: 'allowed' | 'refused' };

/**
 * Routes that need an aal2 session from a user with a verified MFA factor: every route that
 * changes data, except the sign-in bookkeeping below, plus the reads listed here, which reveal
 * secrets. Paths are relative to /v1. API keys are not sessions: their scope is `apiKeys`.
 */
const SECRET_READS: ReadonlySet<string> = new Set(['GET /profile/api_keys', 'GET /profile/get_pat_token']);
/** Writes an aal1 session must be able to make: creating the profile right after sign-in. */
const SIGN_IN_WRITES: ReadonlySet<string> = new Set(['POST /profile/sign_in_sign_up']);

export function needsStepUp(method: string, path: string): boolean {
  const route = `${method.toUpperCase()} ${path}`;
  if (SECRET_READS.has(route)) return true;
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase()) && !SIGN_IN_WRITES.has(route);
}

/**
 * What the guard needs. Finding the caller needs profile/'s API keys, which import this folder,
 * so v1/mounts.ts passes it in (profile/callers.ts; docs/architecture.md, "Server layers").
 */
export interface AccessDeps {
  /** The caller named by the Authorization header, undefined without one, 401 for a bad one. */
  callerOf(c: Context): Promise<ApiCaller | undefined>;
  sessionState: SessionStateLookup;
  limiter: RateLimiter;
  config: { rateLimits: RateLimits };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The caller, with an access token's session checked: undefined when it was signed out. */
async function liveCaller(c: Context, deps: AccessDeps): Promise<{ caller: ApiCaller; hasVerifiedFactor: boolean } | undefined> {
  const caller = await deps.callerOf(c);
  if (!caller) throw unauthorized(MISSING_CREDENTIALS);
  if (caller.via === 'api_key') return { caller, hasVerifiedFactor: false };
  if (!caller.sessionId || !UUID.test(caller.sessionId)) throw unauthorized('Invalid access token');
  const state = await deps.sessionState(caller.sessionId, caller.userId);
  return state.live ? { caller, hasVerifiedFactor: state.hasVerifiedFactor } : undefined;
}

const SESSION_ENDED = 'Session ended (signed out, password changed or revoked): sign in again';

interface RouteRule {
  method: string;
  path: string;
  stepUp: boolean;
}

function guardFor(access: Access, deps: AccessDeps, rule: RouteRule): MiddlewareHandler<MaybeSignedInEnv> | undefined {
  switch (access.auth) {
    case 'public':
      return undefined;
    case 'optional':
      return async (c, next) => {
        // The public catalogue must load even when the browser still holds an expired session.
        const live = await liveCaller(c, deps).catch(() => undefined);
        c.set('caller', live?.caller);
        await next();
      };
    case 'signed-in':
      return async (c, next) => {
        const live = await liveCaller(c, deps);
        if (!live) throw unauthorized(SESSION_ENDED);
        const { caller } = live;
        const route = `${rule.method} /v1${rule.path}`;
        if (caller.via === 'api_key' && access.apiKeys === 'refused') {
          throw forbidden(
            `API keys (lime_…) can run and read services only; ${route} is an account route: call it with a signed-in access token`,
          );
        }
        if (rule.stepUp && live.hasVerifiedFactor && caller.aal !== 'aal2') {
          throw forbidden(`This account uses two-factor authentication: verify a factor (an aal2 session) before ${route}`);
        }
        c.set('caller', caller);
        await next();
      };
  }
}

/** Adds what the guard implies to each route's OpenAPI description. */
function describeAccess<E extends Env>(feature: ApiApp<E>, access: Access) {
  if (access.auth === 'public') return;
  for (const definition of feature.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const route = definition.route;
    if (access.auth === 'optional') {
      route.security = [{}, ...bearer];
      continue;
    }
    route.security = bearer;
    route.responses = { ...route.responses, ...errors(401, 403) };
  }
}

/** HTTP routes of a feature app, without its own `use()` middleware. */
function routesOf<E extends Env>(feature: ApiApp<E>): { method: string; path: string }[] {
  // A route with validators is several entries (one per handler) under one method and path.
  const unique = new Map<string, { method: string; path: string }>();
  for (const { method, path } of feature.routes) {
    // use() middleware is registered as ALL, on '/*' or on one route's path (Idempotency-Key).
    if (method === 'ALL') continue;
    unique.set(`${method} ${path}`, { method, path });
  }
  return [...unique.values()];
}

/**
 * Mounts a feature's app at `prefix` behind the guard its access calls for. The guard is
 * registered for exactly the feature's routes, so public and guarded features may share a
 * prefix and unknown paths stay 404.
 */
export function mountFeature<E extends Env>(
  v1: ApiApp<MaybeSignedInEnv>,
  deps: AccessDeps,
  prefix: string,
  feature: ApiApp<E>,
  access: Access,
) {
  for (const { method, path } of routesOf(feature)) {
    const fullPath = path === '/' ? prefix : `${prefix}${path}`;
    const guard = guardFor(access, deps, { method, path: fullPath, stepUp: needsStepUp(method, fullPath) });
    if (guard) v1.on(method, fullPath, guard);
    const limit = userRateLimitFor(deps.limiter, deps.config.rateLimits, method, fullPath);
    if (limit) v1.on(method, fullPath, limit);
  }
  describeAccess(feature, access);
  v1.route(prefix, feature);
}
