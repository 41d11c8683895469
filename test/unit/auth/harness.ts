import { createActor, fromPromise, type InspectionEvent, type AnyTransitionDefinition } from 'xstate';
import type { Session, User } from '@supabase/auth-js';
import { LimeAuthError } from '../../../src/auth';
import {
  authDialogMachine,
  type AuthDialogEmitted,
  type AuthDialogInput,
  type AuthDialogSnapshot,
} from '../../../src/auth/authDialogMachine';

// A real actor of the auth dialog machine whose network actors are swapped (house rule: via
// .provide()) for promises the test settles by hand, so every step is observable.

export const ACTOR_NAMES = [
  'signIn',
  'signUp',
  'resendVerification',
  'requestRecovery',
  'getRecoverySession',
  'updatePassword',
  'signOut',
  'socialSignIn',
  'checkAssurance',
  'verifyMfa',
  'verifyEmailCode',
  'registerSignIn',
] as const;
export type ActorName = (typeof ACTOR_NAMES)[number];

interface Call {
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  settled: boolean;
}

export const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function fakeSession(overrides: Partial<Session> = {}): Session {
  const now = Math.floor(Date.now() / 1000);
  return {
    access_token: 'access-token',
    refresh_token: 'refresh-token',
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: now + 3600,
    user: fakeUser(),
    ...overrides,
  };
}

export function fakeUser(overrides: Partial<User> = {}): User {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    aud: 'authenticated',
    email: 'ada@example.com',
    app_metadata: {},
    user_metadata: {},
    created_at: new Date(0).toISOString(),
    identities: [
      {
        id: '1',
        identity_id: '1',
        user_id: '1',
        identity_data: {},
        provider: 'email',
        created_at: new Date(0).toISOString(),
        last_sign_in_at: new Date(0).toISOString(),
        updated_at: new Date(0).toISOString(),
      },
    ],
    ...overrides,
  } as User;
}

export const apiError = (code: string, message = `server says ${code}.`, status = 400) =>
  new LimeAuthError(message, { kind: 'api', code, status });
export const networkError = () => new LimeAuthError('Failed to fetch', { kind: 'network', status: 0 });
export const unexpectedError = () => new LimeAuthError('boom', { kind: 'unexpected' });
export const sessionMissingError = () =>
  new LimeAuthError('Auth session missing!', { kind: 'session-missing', code: 'session_not_found', status: 400 });

export function startDialog(input: AuthDialogInput = {}) {
  const calls: Record<ActorName, Call[]> = Object.fromEntries(ACTOR_NAMES.map((n) => [n, []])) as never;
  const make = (name: ActorName) =>
    fromPromise<never, unknown>(
      ({ input: actorInput }) =>
        new Promise<never>((resolve, reject) => {
          const call: Call = {
            input: actorInput,
            resolve: (v) => ((call.settled = true), resolve(v as never)),
            reject: (e) => ((call.settled = true), reject(e)),
            settled: false,
          };
          calls[name].push(call);
        }),
    );
  const machine = authDialogMachine.provide({
    actors: Object.fromEntries(ACTOR_NAMES.map((n) => [n, make(n)])) as never,
  });
  const emitted: AuthDialogEmitted[] = [];
  const transitions: AnyTransitionDefinition[] = [];
  const inspect = (event: InspectionEvent) => {
    if (event.type === '@xstate.microstep') transitions.push(...event._transitions);
  };
  const actor = createActor(machine, { input, inspect });
  actor.on('*', (event) => emitted.push(event as AuthDialogEmitted));
  actor.start();

  function pending(name: ActorName): Call {
    const open = calls[name].filter((c) => !c.settled);
    if (open.length !== 1) throw new Error(`expected one pending "${name}" call, found ${open.length}`);
    return open[0];
  }

  return {
    actor,
    calls,
    emitted,
    transitions,
    snapshot: (): AuthDialogSnapshot => actor.getSnapshot(),
    context: () => actor.getSnapshot().context,
    send: (event: Parameters<typeof actor.send>[0]) => actor.send(event),
    pending,
    async resolve(name: ActorName, output?: unknown) {
      pending(name).resolve(output);
      await flush();
    },
    async reject(name: ActorName, error: unknown) {
      pending(name).reject(error);
      await flush();
    },
    /** Fills the credentials form and submits it. */
    submitCredentials(email = 'ada@example.com', password = 'secret-pw') {
      actor.send({ type: 'CHANGE', field: 'email', value: email });
      actor.send({ type: 'CHANGE', field: 'password', value: password });
      actor.send({ type: 'SUBMIT' });
    },
  };
}

export type Dialog = ReturnType<typeof startDialog>;
