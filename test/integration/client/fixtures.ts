import { apiClients, confirmedUser, signedIn, type Target } from '../helpers';

/** A fresh confirmed user with an access token and an API key. */
export async function keyedUser(server: Target, label = 'sdk-js') {
  const { session } = await signedIn(server, await confirmedUser(server, label));
  const created = await apiClients(server, session.access_token).profile.createApiKey();
  if (!created.ok) throw new Error(created.error);
  return { token: session.access_token, apiKey: created.data.secret };
}
