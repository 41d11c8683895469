import type { Env, MiddlewareHandler } from 'hono';
import { callerOf, MISSING_CREDENTIALS, type MaybeSignedInEnv } from './authenticate';
import type { ApiDeps } from './deps';
import { unauthorized } from './errors';
import { bearer, errors, type ApiApp } from './openapi';

// How a feature's routes are guarded, declared once where the feature is mounted (mounts.ts).
// The guard runs before the routes' own middleware (body validation), so a stranger learns
// nothing about the input a route expects.

export type Access =
  /** No credentials read. */
  | { auth: 'public' }
  /** A valid credential is used; a stale or broken one counts as anonymous. */
  | { auth: 'optional' }
  /** A caller is required (401 otherwise). */
  | { auth: 'signed-in' };

function guardFor(access: Access, deps: ApiDeps): MiddlewareHandler<MaybeSignedInEnv> | undefined {
  switch (access.auth) {
    case 'public':
      return undefined;
    case 'optional':
      return async (c, next) => {
        // The public catalogue must load even when the browser still holds an expired session.
        c.set('caller', await callerOf(c, deps).catch(() => undefined));
        await next();
      };
    case 'signed-in':
      return async (c, next) => {
        const caller = await callerOf(c, deps);
        if (!caller) throw unauthorized(MISSING_CREDENTIALS);
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
    route.responses = { ...route.responses, ...errors(401) };
  }
}

/** HTTP routes of a feature app, without its own `use()` middleware. */
function routesOf<E extends Env>(feature: ApiApp<E>): { method: string; path: string }[] {
  // A route with validators is several entries (one per handler) under one method and path.
  const unique = new Map<string, { method: string; path: string }>();
  for (const { method, path } of feature.routes) {
    if (method === 'ALL' && path.endsWith('*')) continue;
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
  deps: ApiDeps,
  prefix: string,
  feature: ApiApp<E>,
  access: Access,
) {
  const guard = guardFor(access, deps);
  if (guard) for (const route of routesOf(feature)) v1.on(route.method, route.path === '/' ? prefix : `${prefix}${route.path}`, guard);
  describeAccess(feature, access);
  v1.route(prefix, feature);
}
