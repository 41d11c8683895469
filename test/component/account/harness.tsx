import { configure, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { inject } from 'vitest';
import type { SupportedStorage } from '@supabase/auth-js';
import { AuthProvider, createAuthClient, createSessionStore, type LimeAuthClient } from '../../../src/auth';
import { PlatformProvider } from '../../../src/config';

// Renders a panel for a user of the real platform server: a real auth-js client on memory
// storage (its own storage key), its session store, and the platform provider pointing at the
// server. `signUp` makes a fresh confirmed user, so tests never share data.

// Password hashing and PGlite on a busy machine take longer than Testing Library's 1 s default.
configure({ asyncUtilTimeout: 8000 });

let counter = 0;

function memoryStorage(): SupportedStorage {
  const data: Record<string, string> = {};
  return {
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = value;
    },
    removeItem: (key) => {
      delete data[key];
    },
  };
}

export const platformUrl = () => inject('platformUrl');

export function newClient(): LimeAuthClient {
  return createAuthClient({
    authUrl: inject('platformUrl'),
    authKey: inject('authKey'),
    storage: memoryStorage(),
    storageKey: `panels-test-${++counter}-${Date.now()}`,
    detectSessionInUrl: false,
  });
}

export const uniqueEmail = (tag: string) => `panel-${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;

/** A signed-in client of a new user (sign-ups are confirmed at once on the test server). */
export async function signedUpClient(tag: string, password = 'panel-pw-1') {
  const client = newClient();
  const email = uniqueEmail(tag);
  const { error } = await client.signUp({ email, password });
  if (error) throw error;
  return { client, email, password };
}

export function renderPanel(client: LimeAuthClient, ui: ReactNode) {
  const store = createSessionStore(client, { globalEvents: null, visibility: null });
  const url = inject('platformUrl');
  return render(
    <PlatformProvider apiUrl={url} authUrl={url} authKey={inject('authKey')} theme="dark">
      <AuthProvider store={store}>{ui}</AuthProvider>
    </PlatformProvider>,
  );
}
