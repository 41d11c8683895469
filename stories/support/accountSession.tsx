import type { Decorator } from '@storybook/react-vite';
import { AuthProvider, createAuthClient, createSessionStore } from '../../src/auth';
import { PlatformProvider } from '../../src/config';

// Account panel stories talk to the local platform server (`npm start`, port 3000): "signed in"
// stories sign the demo account in first, on a client of their own (memory storage), so the
// panels show real data; "signed out" stories use a client with no session. Without the
// server running, signed-in stories show the panels' load warning.

const API = 'http://localhost:3000';
const DEMO = { email: 'demo@limelight.dev', password: 'limelight-demo' };

function memory() {
  const data: Record<string, string> = {};
  return {
    getItem: (k: string) => data[k] ?? null,
    setItem: (k: string, v: string) => void (data[k] = v),
    removeItem: (k: string) => void delete data[k],
  };
}

const session: Decorator = (Story, context) => {
  const store = context.loaded.store as ReturnType<typeof createSessionStore>;
  return (
    <PlatformProvider apiUrl={API} authUrl={API} theme={context.globals.theme ?? 'dark'}>
      <AuthProvider store={store}>
        <Story />
      </AuthProvider>
    </PlatformProvider>
  );
};

async function load(signedIn: boolean) {
  const client = createAuthClient({
    authUrl: API,
    authKey: '',
    storage: memory(),
    storageKey: `story-${Math.random()}`,
    detectSessionInUrl: false,
  });
  if (signedIn) await client.signInWithPassword(DEMO).catch(() => undefined);
  return { store: createSessionStore(client, { globalEvents: null }) };
}

/** Story parameters for a panel shown to the signed-in demo user. */
export const signedIn = { loaders: [() => load(true)], decorators: [session] };
/** Story parameters for a panel shown to a signed-out visitor (the sign-in prompt). */
export const signedOut = { loaders: [() => load(false)], decorators: [session] };
