import type { Session } from '@supabase/auth-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAuthClient, createSessionStore, LimeAuthError, type LimeAuthClient, type SessionStore } from '../../../src/auth';
import { storageKeyFor } from '../../../src/auth/client';
import { type VisibilitySource } from '../../../src/auth/sessionStore';
import { createGlobalEventsStore } from '../../../src/notifications/globalEvents';
import { confirmedUser } from '../helpers';
import { authKey, memoryStorage, platformUrl, recordingFetch, unreachableUrl, waitUntil } from './platform';

// The session store on the real auth-js client against the real platform server (globalSetup).

class FakeVisibility extends EventTarget implements VisibilitySource {
  visibilityState: 'visible' | 'hidden' = 'visible';
  set(state: 'visible' | 'hidden') {
    this.visibilityState = state;
    this.dispatchEvent(new Event('visibilitychange'));
  }
  override addEventListener(type: 'visibilitychange', listener: () => void) {
    super.addEventListener(type, listener);
  }
  override removeEventListener(type: 'visibilitychange', listener: () => void) {
    super.removeEventListener(type, listener);
  }
}

const releases: Array<() => void> = [];
afterEach(() => {
  releases.splice(0).forEach((release) => release());
});

function setup(options: { storage?: ReturnType<typeof memoryStorage>; visibility?: VisibilitySource | null; authUrl?: string } = {}) {
  const storage = options.storage ?? memoryStorage();
  const recorder = recordingFetch();
  const client = createAuthClient({ authUrl: options.authUrl ?? platformUrl(), authKey: authKey(), storage, fetch: recorder.fetch });
  const globalEvents = createGlobalEventsStore();
  const store = createSessionStore(client, { globalEvents, visibility: options.visibility ?? null });
  const events: string[] = [];
  store.subscribe((state) => {
    if (state.lastEvent && events[events.length - 1] !== state.lastEvent) events.push(state.lastEvent);
  });
  const start = async () => {
    releases.push(store.start());
    await store.whenInitialized();
    await waitUntil(() => store.getSnapshot().isLoggedIn !== null, 5000, 'the initial session');
  };
  const storageKey = storageKeyFor(options.authUrl ?? platformUrl());
  return { storage, client, store, globalEvents, events, start, seen: recorder.seen, storageKey };
}

// An account of this file's own: the store's sign-out is global (every session of the user
// ends), which would end the demo account's sessions that other files on the shared server hold.
let ACCOUNT: { email: string; password: string };
beforeAll(async () => {
  ACCOUNT = await confirmedUser(undefined, 'session-store');
});

async function signInDemo(client: LimeAuthClient): Promise<Session> {
  const { data, error } = await client.signInWithPassword(ACCOUNT);
  if (error || !data.session) throw error ?? new Error('no session');
  return data.session;
}

const loggedIn = (store: SessionStore) => store.getSnapshot().isLoggedIn;

describe('auth client factory (product-rules §5: requires a service URL and key)', () => {
  it('refuses a missing or malformed URL and a missing key, naming the bad input', () => {
    expect(() => createAuthClient({ authUrl: '', authKey: 'k' })).toThrow(LimeAuthError);
    expect(() => createAuthClient({ authUrl: '', authKey: 'k' })).toThrow(/authUrl is empty/);
    expect(() => createAuthClient({ authUrl: 'not a url', authKey: 'k' })).toThrow(/authUrl "not a url" is not an absolute URL/);
    expect(() => createAuthClient({ authUrl: 'ftp://auth.example.com', authKey: 'k' })).toThrow(/uses ftp:/);
    expect(() => createAuthClient({ authUrl: 'https://auth.example.com', authKey: ' ' })).toThrow(/authKey is empty/);
  });

  it('names the browser storage key like supabase-js: sb-<first hostname label>-auth-token', () => {
    expect(storageKeyFor('http://localhost:3000')).toBe('sb-localhost-auth-token');
    expect(storageKeyFor('https://abcdefgh.supabase.co')).toBe('sb-abcdefgh-auth-token');
    expect(storageKeyFor('http://127.0.0.1:4000')).toBe('sb-127-auth-token');
  });

  it('talks to <authUrl>/auth/v1 with the key as apikey and bearer token, and stores the session under that key', async () => {
    const { client, seen, storage, storageKey } = setup();
    await signInDemo(client);
    const call = seen.find((s) => s.url.includes('/token?grant_type=password'))!;
    expect(call.url).toBe(`${platformUrl()}/auth/v1/token?grant_type=password`);
    expect(call.method).toBe('POST');
    expect(call.headers.apikey).toBe(authKey());
    expect(call.headers.authorization).toBe(`Bearer ${authKey()}`);
    expect(JSON.parse(storage.data[storageKey]).access_token).toBeTruthy();
  });
});

describe('session store (product-rules §4 "Authentication state")', () => {
  it('no stored session: logged out, mirrored into is_logged_in', async () => {
    const { store, globalEvents, start } = setup();
    expect(loggedIn(store)).toBeNull();
    expect(globalEvents.getSnapshot().context.is_logged_in).toBeNull();
    await start();
    expect(loggedIn(store)).toBe(false);
    expect(store.getSnapshot().session).toBeNull();
    expect(globalEvents.getSnapshot().context.is_logged_in).toBe(false);
  });

  it('sign-in: logged in, session stored; sign-out: logged out, session removed from storage', async () => {
    const { client, store, globalEvents, storage, storageKey, start } = setup();
    await start();
    await signInDemo(client);
    await waitUntil(() => loggedIn(store) === true);
    expect(store.getSnapshot().lastEvent).toBe('SIGNED_IN');
    expect(store.getSnapshot().session?.user.email).toBe(ACCOUNT.email);
    expect(globalEvents.getSnapshot().context.is_logged_in).toBe(true);
    expect(storage.data[storageKey]).toBeDefined();
    expect(await store.getAccessToken()).toBe(store.getSnapshot().session?.access_token);

    expect(await store.signOut()).toBe(true);
    expect(loggedIn(store)).toBe(false);
    expect(store.getSnapshot().lastEvent).toBe('SIGNED_OUT');
    expect(store.getSnapshot().session).toBeNull();
    expect(storage.data[storageKey]).toBeUndefined();
    expect(globalEvents.getSnapshot().context.is_logged_in).toBe(false);
    expect(await store.getAccessToken()).toBeNull();
  });

  it('a stored session is recovered at start (a reload stays signed in)', async () => {
    const first = setup();
    await signInDemo(first.client);
    const second = setup({ storage: first.storage });
    await second.start();
    expect(loggedIn(second.store)).toBe(true);
    expect(second.store.getSnapshot().session?.user.email).toBe(ACCOUNT.email);
  });

  it('an expired stored session with a good refresh token is refreshed at start', async () => {
    const first = setup();
    const session = await signInDemo(first.client);
    const expired = { ...session, expires_at: Math.floor(Date.now() / 1000) - 10 };
    first.storage.data[first.storageKey] = JSON.stringify(expired);
    const second = setup({ storage: first.storage });
    await second.start();
    await waitUntil(() => loggedIn(second.store) === true, 5000, 'logged in after refresh');
    expect(second.events).toContain('TOKEN_REFRESHED');
    expect(second.seen.some((s) => s.url.includes('grant_type=refresh_token') && s.status === 200)).toBe(true);
    const stored = JSON.parse(second.storage.data[second.storageKey]) as Session;
    expect(stored.refresh_token).not.toBe(session.refresh_token);
    expect(stored.expires_at! * 1000).toBeGreaterThan(Date.now());
  });

  it('a refused refresh token with an expired access token: session removed, SIGNED_OUT', async () => {
    const first = setup();
    const session = await signInDemo(first.client);
    first.storage.data[first.storageKey] = JSON.stringify({
      ...session,
      expires_at: Math.floor(Date.now() / 1000) - 10,
      refresh_token: 'not-a-valid-refresh-token',
    });
    const second = setup({ storage: first.storage });
    releases.push(second.store.start());
    await waitUntil(() => loggedIn(second.store) === false, 5000, 'logged out');
    expect(second.seen.some((s) => s.url.includes('grant_type=refresh_token') && s.status >= 400 && s.status < 500)).toBe(true);
    expect(second.storage.data[second.storageKey]).toBeUndefined();
    expect(second.events).toContain('SIGNED_OUT');
  });

  it('a refused refresh token while the access token still works: signed out all the same (non-retryable)', async () => {
    const first = setup();
    const session = await signInDemo(first.client);
    // Inside auth-js's 90 s refresh margin, still valid: auth-js alone would keep this session.
    first.storage.data[first.storageKey] = JSON.stringify({
      ...session,
      expires_at: Math.floor(Date.now() / 1000) + 60,
      refresh_token: 'not-a-valid-refresh-token',
    });
    const second = setup({ storage: first.storage });
    releases.push(second.store.start());
    await waitUntil(() => second.seen.some((s) => s.url.includes('grant_type=refresh_token')), 5000, 'the refresh attempt');
    await waitUntil(() => second.events.includes('SIGNED_OUT'), 5000, 'SIGNED_OUT');
    expect(loggedIn(second.store)).toBe(false);
    expect(second.storage.data[second.storageKey]).toBeUndefined();
  });

  it('a failed sign-out returns false (product-rules §8) and keeps the session', async () => {
    const first = setup();
    await signInDemo(first.client);
    // The same stored session, but the server cannot be reached.
    const nowhere = await unreachableUrl();
    const offline = setup({ storage: first.storage, authUrl: nowhere });
    offline.storage.data[storageKeyFor(nowhere)] = first.storage.data[first.storageKey];
    await offline.start();
    expect(loggedIn(offline.store)).toBe(true);
    expect(await offline.store.signOut()).toBe(false);
    expect(loggedIn(offline.store)).toBe(true);
  });
});

describe('auto-refresh follows page visibility (product-rules §4)', () => {
  it('paused while hidden, resumed when visible: a session near expiry is refreshed only once visible', async () => {
    const first = setup();
    const session = await signInDemo(first.client);
    const visibility = new FakeVisibility();
    visibility.visibilityState = 'hidden';
    const second = setup({ storage: first.storage, visibility });
    await second.start();
    expect(second.store.getSnapshot().autoRefresh).toBe('paused');
    expect(loggedIn(second.store)).toBe(true);

    // Now the session is about to expire; a running timer would refresh it on its next tick.
    second.storage.data[second.storageKey] = JSON.stringify({ ...session, expires_at: Math.floor(Date.now() / 1000) + 30 });
    const refreshes = () => second.seen.filter((s) => s.url.includes('grant_type=refresh_token')).length;
    await new Promise((r) => setTimeout(r, 300));
    expect(refreshes()).toBe(0);

    visibility.set('visible');
    expect(second.store.getSnapshot().autoRefresh).toBe('running');
    await waitUntil(() => second.events.includes('TOKEN_REFRESHED'), 5000, 'TOKEN_REFRESHED');
    expect(refreshes()).toBe(1);
    expect(loggedIn(second.store)).toBe(true);

    visibility.set('hidden');
    expect(second.store.getSnapshot().autoRefresh).toBe('paused');
  });

  it('stops with its last user', async () => {
    const { store, start } = setup({ visibility: new FakeVisibility() });
    await start();
    expect(store.getSnapshot().autoRefresh).toBe('running');
    const extra = store.start();
    releases.pop()!();
    expect(store.getSnapshot().autoRefresh).toBe('running');
    extra();
    expect(store.getSnapshot().autoRefresh).toBe('stopped');
  });
});
