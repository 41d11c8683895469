import { apiClients, confirmedUser, signedIn, type Target } from '../helpers';

/** A fresh confirmed user with an access token and an API key. */
export async function keyedUser(server: Target, label = 'sdk-js') {
  const { session } = await signedIn(server, await confirmedUser(server, label));
  const created = await apiClients(server, session.access_token).profile.createApiKey();
  if (!created.ok) throw new Error(created.error);
  return { token: session.access_token, apiKey: created.data.secret };
}

/**
 * A fetch whose first `POST /v1/jobs` answer a gateway loses (a 503 after the server created the
 * job), recording the Idempotency-Key of every submission.
 */
export function lostAnswerFetch() {
  const keys: string[] = [];
  const lossy: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method !== 'POST' || !String(input).endsWith('/v1/jobs')) return response;
    keys.push(new Headers(init.headers).get('idempotency-key')!);
    return keys.length === 1 ? new Response('{"detail":"bad gateway"}', { status: 503, headers: { 'Retry-After': '0' } }) : response;
  };
  return { fetch: lossy, keys };
}
