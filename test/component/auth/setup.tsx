import { render } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import { vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { Session, SupportedStorage, User } from '@supabase/auth-js';
import { AuthProvider, createAuthClient, createSessionStore, LimeAuthError } from '../../../src/auth';
import type { AuthDialogActors } from '../../../src/auth/authDialogActors';
import { PlatformProvider } from '../../../src/config';
import { createGlobalEventsStore } from '../../../src/notifications/globalEvents';
import { ACTOR_NAMES } from '../../unit/auth/harness';

// The dialog runs on a real auth-js client (memory storage, its own storage key) so the session
// store, its events and the visitor redirect are the real ones; only the network actors are
// swapped through the `actors` prop (house rule: tests swap actors), as promises settled by hand.

// The machine's network actors, listed once for both auth harnesses.
export const ACTORS = ACTOR_NAMES;
type ActorName = (typeof ACTORS)[number];

interface Call {
  input: unknown;
  resolve: (value?: unknown) => void;
  reject: (error: unknown) => void;
}

export function memoryStorage(initial: Record<string, string> = {}): SupportedStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => (key in data ? data[key] : null),
    setItem: (key, value) => {
      data[key] = value;
    },
    removeItem: (key) => {
      delete data[key];
    },
  };
}

export function fakeSession(overrides: Partial<Session> = {}): Session {
  const user = {
    id: '00000000-0000-4000-8000-000000000001',
    aud: 'authenticated',
    role: 'authenticated',
    email: 'ada@example.com',
    app_metadata: {},
    user_metadata: {},
    identities: [{ id: '1', identity_id: '1', user_id: '1', identity_data: {}, provider: 'email' }],
    created_at: new Date(0).toISOString(),
  } as unknown as User;
  return {
    access_token: 'access-token',
    refresh_token: 'refresh-token',
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    user,
    ...overrides,
  };
}

let counter = 0;

export interface MountOptions {
  /** A session already in storage (a signed-in visitor). */
  storedSession?: Session;
  navigate?: (path: string) => void;
}

export function mount(ui: (actors: Partial<AuthDialogActors>) => ReactNode, options: MountOptions = {}) {
  const calls = Object.fromEntries(ACTORS.map((n) => [n, [] as Call[]])) as Record<ActorName, Call[]>;
  const actors = Object.fromEntries(
    ACTORS.map((name) => [
      name,
      fromPromise<unknown, unknown>(
        ({ input }) =>
          new Promise((resolve, reject) => {
            calls[name].push({ input, resolve, reject });
          }),
      ),
    ]),
  ) as unknown as Partial<AuthDialogActors>;

  const storageKey = `sb-component-test-${++counter}-auth-token`;
  const storage = memoryStorage(options.storedSession ? { [storageKey]: JSON.stringify(options.storedSession) } : {});
  // Nothing listens there: every network call of the test goes through the swapped actors.
  const client = createAuthClient({ authUrl: 'http://127.0.0.1:9', authKey: 'test-key', storage, storageKey });
  const globalEvents = createGlobalEventsStore();
  const store = createSessionStore(client, { globalEvents, visibility: null });
  const navigate = vi.fn(options.navigate ?? (() => {}));

  // StrictMode, as the reference app runs it: effects mount, unmount and mount again.
  const view = render(
    <StrictMode>
      <PlatformProvider apiUrl="http://127.0.0.1:9" authUrl="http://127.0.0.1:9" authKey="test-key" navigate={navigate}>
        <AuthProvider store={store}>
          <main>{ui(actors)}</main>
        </AuthProvider>
      </PlatformProvider>
    </StrictMode>,
  );

  const last = (name: ActorName) => {
    const list = calls[name];
    if (!list.length) throw new Error(`no "${name}" call`);
    return list[list.length - 1];
  };
  return { ...view, calls, last, navigate, store, globalEvents, storage, client };
}

export const apiError = (code: string, message = `server says ${code}`) => new LimeAuthError(message, { kind: 'api', code, status: 400 });
