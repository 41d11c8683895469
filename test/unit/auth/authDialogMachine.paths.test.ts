import { getAdjacencyMap, getStateNodes } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { getMicrosteps, type AnyStateMachine, type AnyStateNode, type AnyTransitionDefinition } from 'xstate';
import {
  authDialogMachine,
  type AuthDialogEvent,
  type AuthDialogInput,
  type AuthDialogSnapshot,
} from '../../../src/auth/authDialogMachine';
import { formOf, PAGE_SCREENS } from '../../../src/auth/screens';
import { validateEmail, validateEmailCode, validateMfaCode, validateNewPassword, validatePassword } from '../../../src/auth/validation';
import { apiError, fakeSession, fakeUser, flush, networkError, sessionMissingError, startDialog, type ActorName } from './harness';

// Paths generated from the machine itself (@xstate/graph): for every transition the machine
// defines, a shortest path that takes it is replayed on a real actor whose network actors are
// settled by hand; each step must land where the model says, and together the paths must take
// every transition (event, guard branch, onDone/onError, eventless) and visit every state.

type GraphEvent = AuthDialogEvent | { type: string; output?: unknown; error?: unknown };
type Adjacency = Record<
  string,
  { state: AuthDialogSnapshot; transitions: Record<string, { event: GraphEvent; state: AuthDialogSnapshot }> }
>;

// Validation messages are pinned in authDialogMachine.test.ts; here only valid vs invalid matters.
const userEvents: AuthDialogEvent[] = [
  { type: 'CHANGE', field: 'email', value: '' },
  { type: 'CHANGE', field: 'email', value: 'ada@example.com' },
  { type: 'CHANGE', field: 'password', value: '' },
  { type: 'CHANGE', field: 'password', value: 'secret-pw' },
  { type: 'CHANGE', field: 'newPassword', value: '' },
  { type: 'CHANGE', field: 'newPassword', value: 'new-secret' },
  { type: 'CHANGE', field: 'mfaCode', value: '' },
  { type: 'CHANGE', field: 'mfaCode', value: '123456' },
  { type: 'CHANGE', field: 'emailCode', value: '' },
  { type: 'CHANGE', field: 'emailCode', value: '123 456' },
  { type: 'SUBMIT' },
  { type: 'SHOW_SIGN_UP' },
  { type: 'SHOW_SIGN_IN' },
  { type: 'FORGOT_PASSWORD' },
  { type: 'BACK_TO_LOGIN' },
  { type: 'RESEND' },
  { type: 'SOCIAL', provider: 'azure' },
  { type: 'SESSION', loggedIn: true },
  { type: 'SESSION', loggedIn: false },
  { type: 'DISMISS_ALERT' },
  { type: 'CANCEL' },
  ...PAGE_SCREENS.map((screen) => ({ type: 'SET_SCREEN' as const, screen })),
];

const session = fakeSession();
/** Representative outcomes of each network actor (invoke ids equal the actor names). */
const outcomes: Record<ActorName, GraphEvent[]> = {
  signIn: [
    { type: 'xstate.done.actor.signIn', output: session },
    { type: 'xstate.error.actor.signIn', error: apiError('invalid_credentials') },
    { type: 'xstate.error.actor.signIn', error: apiError('email_not_confirmed') },
  ],
  signUp: [
    { type: 'xstate.done.actor.signUp', output: { user: fakeUser(), session: null } },
    { type: 'xstate.done.actor.signUp', output: { user: fakeUser(), session } },
    { type: 'xstate.done.actor.signUp', output: { user: fakeUser({ identities: [] }), session: null } },
    { type: 'xstate.done.actor.signUp', output: { user: fakeUser({ email_confirmed_at: '2026-01-01T00:00:00Z' }), session: null } },
    { type: 'xstate.error.actor.signUp', error: apiError('weak_password') },
  ],
  resendVerification: [
    { type: 'xstate.done.actor.resendVerification' },
    { type: 'xstate.error.actor.resendVerification', error: networkError() },
  ],
  requestRecovery: [
    { type: 'xstate.done.actor.requestRecovery' },
    { type: 'xstate.error.actor.requestRecovery', error: apiError('over_email_send_rate_limit') },
  ],
  getRecoverySession: [
    { type: 'xstate.done.actor.getRecoverySession', output: session },
    { type: 'xstate.done.actor.getRecoverySession', output: null },
    { type: 'xstate.error.actor.getRecoverySession', error: networkError() },
  ],
  updatePassword: [
    { type: 'xstate.done.actor.updatePassword' },
    { type: 'xstate.error.actor.updatePassword', error: apiError('same_password') },
    { type: 'xstate.error.actor.updatePassword', error: sessionMissingError() },
  ],
  signOut: [{ type: 'xstate.done.actor.signOut' }, { type: 'xstate.error.actor.signOut', error: networkError() }],
  socialSignIn: [{ type: 'xstate.done.actor.socialSignIn' }, { type: 'xstate.error.actor.socialSignIn', error: networkError() }],
  checkAssurance: [
    { type: 'xstate.done.actor.checkAssurance', output: { factorId: null } },
    { type: 'xstate.done.actor.checkAssurance', output: { factorId: 'factor-1' } },
    { type: 'xstate.error.actor.checkAssurance', error: networkError() },
  ],
  verifyMfa: [
    { type: 'xstate.done.actor.verifyMfa', output: session },
    { type: 'xstate.error.actor.verifyMfa', error: apiError('mfa_verification_failed') },
  ],
  verifyEmailCode: [
    { type: 'xstate.done.actor.verifyEmailCode', output: session },
    { type: 'xstate.error.actor.verifyEmailCode', error: apiError('otp_expired', 'Token has expired or is invalid', 403) },
  ],
  registerSignIn: [{ type: 'xstate.done.actor.registerSignIn' }, { type: 'xstate.error.actor.registerSignIn', error: networkError() }],
};

function eventsFor(snapshot: AuthDialogSnapshot): GraphEvent[] {
  if (snapshot.status !== 'active') return [];
  const running = Object.keys(snapshot.children) as ActorName[];
  return [...userEvents, ...running.flatMap((id) => outcomes[id] ?? [])];
}

/** What the guards can see, and nothing else: the abstraction the graph is built on. */
function serialize(snapshot: AuthDialogSnapshot): string {
  const c = snapshot.context;
  const form = formOf(c.screen);
  // Passwords and the code are cleared on every screen change, so their validity matters only
  // on the form that reads them; the e-mail carries over (sign-in to recovery).
  return JSON.stringify({
    value: snapshot.value,
    status: snapshot.status,
    email: !validateEmail(c.email),
    password: form === 'credentials' && !validatePassword(c.password),
    newPassword: form === 'newPassword' && !validateNewPassword(c.newPassword),
    mfaCode: form === 'mfaCode' && !validateMfaCode(c.mfaCode),
    emailCode: form === 'emailCode' && !validateEmailCode(c.emailCode),
    oauthError: !!c.oauthError,
    form,
    resend: c.alert?.action === 'resend',
    sentTo: !!c.sentTo,
    loggedIn: c.loggedIn,
  });
}

// Page and overlay mode are explored in full (every screen is reachable from them through the
// UI or SET_SCREEN); the other starts differ only in where `routing` sends them. Page mode is on
// the dashboard's address, so sign-ins leave for /account (`left`) while sign-ups, whose route is
// the dashboard, stay (`stayed`, and a sign-out from there): one exploration reaches both ends.
const inputs: Array<[string, AuthDialogInput, boolean]> = [
  ['page mode (at /account/dashboard)', { location: 'http://localhost/account/dashboard' }, true],
  ['overlay mode', { mode: 'overlay' }, true],
  ['recovery link (passwordreset=true)', { passwordReset: true }, false],
  ['confirmation link (emailconfirmed=true)', { emailConfirmed: true }, false],
  ['confirmation link with an error', { emailConfirmed: true, linkError: true }, false],
  ['back from a social sign-in with an error', { oauthError: { provider: 'github' } }, false],
  ...PAGE_SCREENS.filter((screen) => screen !== 'signIn').map((screen): [string, AuthDialogInput, boolean] => [
    `screen ${screen}`,
    { screen },
    false,
  ]),
];

const transitionKey = (t: AnyTransitionDefinition) => {
  const index = (t.source.transitions.get(t.eventType) ?? t.source.always ?? []).indexOf(t);
  return `${t.source.id} --${t.eventType || 'always'}[${index}]--> ${t.target?.map((n) => n.id).join(',') ?? '(none)'}`;
};

function allTransitions(): string[] {
  const nodes = getStateNodes(authDialogMachine.root) as AnyStateNode[];
  return [authDialogMachine.root, ...nodes].flatMap((node) => [
    ...[...node.transitions.values()].flat().map(transitionKey),
    ...(node.always ?? []).map(transitionKey),
  ]);
}

/** Eventless transitions a step sets off: a node with `always` left in a later microstep. */
function eventlessTaken(state: AuthDialogSnapshot, event: AuthDialogEvent): AnyTransitionDefinition[] {
  const steps = getMicrosteps(authDialogMachine, state, event).map(([snapshot]) => snapshot);
  const found: AnyTransitionDefinition[] = [];
  for (let i = 1; i < steps.length; i++) {
    const before = steps[i - 1]._nodes;
    const after = steps[i]._nodes;
    for (const node of before) {
      if (!node.always?.length || after.includes(node)) continue;
      const def = node.always.find((t) => t.target?.every((target) => after.includes(target)));
      if (def) found.push(def);
    }
  }
  return found;
}

async function replay(input: AuthDialogInput, steps: Array<{ event: GraphEvent; state: AuthDialogSnapshot }>) {
  const dialog = startDialog(input);
  await flush();
  for (const [index, step] of steps.entries()) {
    const { event } = step;
    const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
    if (done) {
      const name = done[2] as ActorName;
      if (done[1] === 'done') await dialog.resolve(name, (event as { output?: unknown }).output);
      else await dialog.reject(name, (event as { error?: unknown }).error);
    } else {
      dialog.send(event as AuthDialogEvent);
      await flush();
    }
    expect(serialize(dialog.snapshot()), `step ${index + 1}: ${JSON.stringify(event)}`).toBe(serialize(step.state));
  }
  return dialog;
}

describe('auth dialog machine: generated paths (@xstate/graph)', () => {
  const taken = new Set<string>();
  const visited = new Set<string>();
  const emittedTypes = new Set<string>();

  for (const [name, input, explore] of inputs) {
    // Exploring page and overlay mode takes seconds alone, much longer on a loaded machine.
    it(`${name}: every reachable transition, replayed on a real actor`, { timeout: 120_000 }, async () => {
      const adjacency = getAdjacencyMap(authDialogMachine as AnyStateMachine, {
        input,
        events: (explore ? eventsFor : () => []) as never,
        serializeState: serialize as never,
      }) as unknown as Adjacency;

      // Shortest path to every abstract state: breadth-first over the adjacency map.
      type Steps = Array<{ event: GraphEvent; state: AuthDialogSnapshot }>;
      const [initial] = Object.keys(adjacency);
      const pathTo = new Map<string, Steps>([[initial, []]]);
      const queue = [initial];
      while (queue.length) {
        const from = queue.shift()!;
        for (const { event, state } of Object.values(adjacency[from].transitions)) {
          const to = serialize(state as AuthDialogSnapshot);
          if (pathTo.has(to)) continue;
          pathTo.set(to, [...pathTo.get(from)!, { event: event as GraphEvent, state: state as AuthDialogSnapshot }]);
          queue.push(to);
        }
      }

      // One path per state value, and one per transition definition (its first edge found).
      const chosen = new Map<string, Steps>();
      for (const [serialized, { state, transitions }] of Object.entries(adjacency)) {
        const base = pathTo.get(serialized)!;
        const valueKey = `value ${JSON.stringify((state as AuthDialogSnapshot).value)}`;
        if (!chosen.has(valueKey)) chosen.set(valueKey, base);
        for (const { event, state: next } of Object.values(transitions)) {
          const direct = authDialogMachine.getTransitionData(state as AuthDialogSnapshot, event as AuthDialogEvent);
          // The microsteps (most of this loop's time) are replayed only after a transition, 55%
          // of the edges: an event no transition takes leaves the state at rest, and nothing
          // eventless follows it. Checked, not assumed: such an edge must end on the very same
          // state value and context object, which an eventless transition would have changed.
          if (!direct.length) {
            const after = next as AuthDialogSnapshot;
            const before = state as AuthDialogSnapshot;
            if (after.context !== before.context || JSON.stringify(after.value) !== JSON.stringify(before.value)) {
              throw new Error(`${JSON.stringify(event)} took no transition yet changed ${serialized}`);
            }
          }
          const defs = direct.length ? [...direct, ...eventlessTaken(state as AuthDialogSnapshot, event as AuthDialogEvent)] : [];
          for (const def of defs) {
            const key = transitionKey(def);
            if (!chosen.has(key)) chosen.set(key, [...base, { event: event as GraphEvent, state: next as AuthDialogSnapshot }]);
          }
        }
      }
      if (explore) expect(chosen.size).toBeGreaterThan(50);
      for (const steps of chosen.values()) {
        const dialog = await replay(input, steps);
        for (const t of dialog.transitions) {
          taken.add(transitionKey(t));
          visited.add(t.source.id);
          t.target?.forEach((node) => visited.add(node.id));
        }
        for (const node of dialog.snapshot()._nodes) visited.add(node.id);
        dialog.emitted.forEach((e) => emittedTypes.add(e.type));
        dialog.actor.stop();
      }
    });
  }

  it('together the paths take every transition and visit every state of the machine', () => {
    const all = allTransitions();
    expect(all.length).toBeGreaterThan(70);
    const missing = all.filter((key) => !taken.has(key));
    expect(missing).toEqual([]);
    const states = (getStateNodes(authDialogMachine.root) as AnyStateNode[]).map((n) => n.id);
    expect(states.filter((id) => !visited.has(id))).toEqual([]);
    expect([...emittedTypes].sort()).toEqual(['authenticated', 'close', 'navigate']);
  });
});
