import { createClient as createAuthClient } from '@supabase/supabase-js';
import { describe, inject } from 'vitest';
import { clientScenarios } from '../../client/scenarios';

// @limelight/client in real Chromium against the real platform server (CORS open to the test
// page): the shared scenarios (test/sdk/scenarios.json) listed for Chromium, as in Node and
// Python, signed in with an access token as a web app would be.

async function signedInToken(): Promise<string> {
  const auth = createAuthClient(inject('platformUrl'), inject('authKey'), { auth: { persistSession: false, autoRefreshToken: false } });
  const { data, error } = await auth.auth.signUp({
    email: `sdk-browser-${crypto.randomUUID().slice(0, 12)}@example.test`,
    password: `pw-${crypto.randomUUID()}`,
  });
  if (error || !data.session) throw error ?? new Error('no session: the component server confirms sign-ups at once');
  return data.session.access_token;
}

describe('@limelight/client in Chromium', () => {
  clientScenarios('chromium', async () => ({ baseUrl: inject('platformUrl'), credential: { token: await signedInToken() } }));
});
