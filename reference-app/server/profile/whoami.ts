import { createRoute, z } from '@hono/zod-openapi';
import type { SignedInEnv } from '../api/authenticate';
import { createApiApp, errors, json } from '../api/openapi';

// GET /v1/whoami: whose credential this is, for `limelight login` and `limelight whoami`
// (docs/publishing.md, "Signing in"). Mounted signed-in with API keys allowed (v1/mounts.ts),
// unlike /profile: it answers only what the caller already proves to be (its account's id and
// email, and whether it signed in with a key or a session), nothing a leaked key could change.

const WhoamiSchema = z
  .object({
    user_id: z.string(),
    email: z.string(),
    via: z.enum(['token', 'api_key']).openapi({ description: 'api_key for a lime_… key, token for a session’s access token' }),
  })
  .openapi('Whoami');

export function whoamiRoutes() {
  const app = createApiApp<SignedInEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags: ['profile'],
      summary: 'The account the credential signs in as',
      responses: { 200: json(WhoamiSchema, 'The caller'), ...errors(401) },
    }),
    (c) => {
      const { userId, email, via } = c.var.caller;
      return c.json({ user_id: userId, email, via }, 200);
    },
  );
  return app;
}
