import { randomUUID } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import { createPlatformClients } from '../../src/api';
import { startPlatformServer } from '../../reference-app/server/testing';

// A real platform server for the SDK tests that are not vitest (the Python SDK's unittest, the
// packed-tarball consumer test): PGlite, the local demo runtimes, webhooks to loopback allowed,
// and a fresh user with an API key. Prints one JSON line { url, apiKey, token, email, password } and
// shuts down when its stdin closes (so a crashed test runner never leaves it behind).
//
//   node --conditions=source --import tsx test/sdk/server.ts

const server = await startPlatformServer({
  env: { MAILER_AUTOCONFIRM: 'true', JOB_WEBHOOK_ALLOW_PRIVATE: 'true', JOB_POLL_MS: '200', LOCAL_DEMO_STEP_MS: '50' },
});
try {
  const email = `sdk-${randomUUID().slice(0, 12)}@example.test`;
  const password = `pw-${randomUUID()}`;
  // Node 20 has no WebSocket for supabase-js's realtime client, which this script never uses.
  const auth = createClient(server.url, server.authKey, {
    realtime: { transport: class {} as never },
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await auth.auth.signUp({ email, password });
  if (error || !data.session) throw error ?? new Error('sign-up returned no session (MAILER_AUTOCONFIRM)');
  const token = data.session.access_token;
  const clients = createPlatformClients({ baseURL: server.url, getAccessToken: () => token });
  await clients.profile.signInSignUp();
  const key = await clients.profile.createApiKey();
  if (!key.ok) throw new Error(`create_api_key: ${key.error}`);
  // token: the signed-in session, for account-only calls such as reading the webhook secret.
  process.stdout.write(`${JSON.stringify({ url: server.url, apiKey: key.data.secret, token, email, password })}\n`);
} catch (error) {
  console.error(error);
  await server.close();
  process.exit(1);
}

process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
