import type { Context } from 'hono';
import { createApiApp } from '../api/openapi';
import { sessionStateLookup } from '../api/sessionState';
import type { SignedInEnv } from '../api/authenticate';
import { callerOfSecret, type CallerDeps } from '../profile/callers';
import { RegistryDenied, type PlatformRegistry } from './platformRegistry';
import { RUNNER_USERNAME } from './tokens';

// The registry's token endpoint (Distribution's docs/spec/auth/token.md), GET /v1/registry/token:
// Basic credentials whose password is an API key (`lime_…`) or a session's access token (the user
// name is not checked: `podman login -u anything -p lime_…`), or the runner's pull ticket with the
// user name limelight-runner. And GET /v1/registry: where a signed-in caller pushes.

const refuse = (c: Context, status: 401 | 403, message: string) =>
  c.json({ detail: message, errors: [{ code: status === 401 ? 'UNAUTHORIZED' : 'DENIED', message }] }, status, {
    ...(status === 401 ? { 'WWW-Authenticate': 'Basic realm="limelight registry"' } : {}),
  });

function basicOf(header: string | undefined): { username: string; password: string } | null {
  const match = header?.match(/^Basic\s+(\S+)\s*$/i);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function registryTokenRoutes(deps: CallerDeps & { registry?: PlatformRegistry }) {
  const app = createApiApp();
  const sessionState = sessionStateLookup(deps.db);
  app.get('/registry/token', async (c) => {
    const registry = deps.registry;
    if (!registry) return c.json({ detail: 'This platform runs no registry (container hosting is off)' }, 404);
    const basic = basicOf(c.req.header('authorization'));
    if (!basic) return refuse(c, 401, 'Sign in to the registry: the password is an API key (lime_…) or an access token');
    const scopes = c.req.queries('scope') ?? [];
    try {
      if (basic.username === RUNNER_USERNAME) return c.json(await registry.token({ ticket: basic.password }, scopes));
      const caller = await callerOfSecret(deps, basic.password).catch(() => null);
      if (!caller) return refuse(c, 401, 'Invalid registry password: use an API key (lime_…) or a live access token');
      if (caller.sessionId && !(await sessionState(caller.sessionId, caller.userId)).live) {
        return refuse(c, 401, 'The session behind this access token has ended; sign in again');
      }
      return c.json(await registry.token({ userId: caller.userId }, scopes));
    } catch (error) {
      if (error instanceof RegistryDenied) return refuse(c, 403, error.message);
      throw error;
    }
  });
  return app;
}

export function registryInfoRoutes(deps: { registry?: PlatformRegistry }) {
  const app = createApiApp<SignedInEnv>();
  app.get('/registry', async (c) => {
    const registry = deps.registry;
    if (!registry) return c.json({ detail: 'This platform runs no registry (container hosting is off)' }, 404);
    const namespace = await registry.namespaceOf(c.var.caller.userId);
    return c.json({ host: registry.host, namespace, example: `${registry.host}/${namespace}/my-service:latest` });
  });
  return app;
}
