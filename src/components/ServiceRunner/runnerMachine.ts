import { assign, fromCallback, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { FieldError, Job, JobStatus } from '../../api/types';

/**
 * The run lifecycle of the service runner (docs/jobs.md): validate the input as the server will,
 * create the job, follow it over the event stream until it ends, cancel on request. 401 waits
 * for a sign-in and then submits the same input again; 402 stops with a link to billing; 422
 * marks the fields the server rejected.
 *
 *   idle -> validating -> submitting -> running.{watching, cancelling} -> finished | failed | cancelled
 *                      \-> invalid     \-> needsAuth -> submitting (after sign-in)
 *                                      \-> needsCredits | invalid | failed
 */

/** Why a call failed, as the runner needs it. */
export class RunnerError extends Error {
  override name = 'RunnerError';
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: readonly FieldError[] = [],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface RunRequest {
  endpoint: string;
  input: Record<string, unknown>;
}

/** The run machine's context: the request, the current job, field errors and the last error. */
export interface RunnerContext {
  request: RunRequest | null;
  job: Job | null;
  fieldErrors: readonly FieldError[];
  /** The last failure of a call (not of the job itself, whose error is in `job.error`). */
  error: RunnerError | null;
  /** When the current run was submitted (ms since epoch), for the elapsed-time display. */
  submittedAt: number | null;
  /** Sent as `Idempotency-Key`: a create retried for the same Run is one job, one charge. */
  idempotencyKey: string;
}

/** The events the run machine accepts (run, cancel, dismiss, open a job, and the job updates it follows). */
export type RunnerEvent =
  | { type: 'RUN'; request: RunRequest; fieldErrors?: readonly FieldError[] }
  | { type: 'CANCEL' }
  | { type: 'SIGNED_IN' }
  | { type: 'DISMISS' }
  | { type: 'OPEN'; job: Job }
  | { type: 'JOB_UPDATE'; job: Job }
  /** The event stream failed for good (e.g. 404 after the job expired). */
  | { type: 'WATCH_FAILED'; status: number; message: string };

export const TERMINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['FINISHED', 'FAILED', 'TIMEOUT', 'CANCELLED']);

export const isTerminal = (job: Job | null): boolean => job !== null && TERMINAL_STATUSES.has(job.status);

/** Validates an input like the server does; resolves with the field errors (empty when valid). */
export type ValidateInput = { request: RunRequest };
export type SubmitInput = { request: RunRequest; idempotencyKey: string };
export type WatchInput = { job: Job };
export type CancelInput = { jobId: string };

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

function toRunnerError(error: unknown): RunnerError {
  if (error instanceof RunnerError) return error;
  return new RunnerError(0, error instanceof Error ? error.message : String(error), [], { cause: error });
}

/** The service runner's XState machine: submit a job, follow it over SSE until it ends, cancel it. */
export const runnerMachine = setup({
  types: {
    context: {} as RunnerContext,
    events: {} as RunnerEvent,
  },
  actors: {
    validate: fromPromise<readonly FieldError[], ValidateInput>(async () => []),
    submit: fromPromise<Job, SubmitInput>(async () => {
      throw new RunnerError(0, 'submit is not provided');
    }),
    /** Follows a job: sends JOB_UPDATE for every envelope until the job ends. */
    watch: fromCallback<RunnerEvent, WatchInput>(() => () => {}),
    cancel: fromPromise<Job | null, CancelInput>(async () => null),
  },
  guards: {
    hasFieldErrors: ({ event }) => 'output' in event && Array.isArray(event.output) && event.output.length > 0,
    isUnauthorized: ({ event }) => 'error' in event && toRunnerError(event.error).status === 401,
    isPaymentRequired: ({ event }) => 'error' in event && toRunnerError(event.error).status === 402,
    isInvalid: ({ event }) => 'error' in event && toRunnerError(event.error).status === 422,
    jobEnded: ({ event }) => event.type === 'JOB_UPDATE' && TERMINAL_STATUSES.has(event.job.status),
    openedJobRunning: ({ event }) => event.type === 'OPEN' && !TERMINAL_STATUSES.has(event.job.status),
    preCheckFailed: ({ event }) => event.type === 'RUN' && (event.fieldErrors?.length ?? 0) > 0,
  },
  actions: {
    startRun: assign(({ event }) =>
      event.type === 'RUN'
        ? { request: event.request, fieldErrors: [], error: null, job: null, submittedAt: null, idempotencyKey: newKey() }
        : {},
    ),
    keepWatchError: assign({
      error: ({ event }) => (event.type === 'WATCH_FAILED' ? new RunnerError(event.status, event.message) : null),
    }),
    markPreCheckErrors: assign(({ event }) =>
      event.type === 'RUN' ? { request: event.request, fieldErrors: event.fieldErrors ?? [], error: null } : {},
    ),
    markValidationErrors: assign({ fieldErrors: ({ event }) => ('output' in event ? (event.output as readonly FieldError[]) : []) }),
    markServerErrors: assign(({ event }) => {
      const error = toRunnerError('error' in event ? event.error : undefined);
      return { error, fieldErrors: error.fieldErrors };
    }),
    keepError: assign({ error: ({ event }) => toRunnerError('error' in event ? event.error : undefined) }),
    stampSubmitted: assign({ submittedAt: () => Date.now() }),
    storeCreated: assign({ job: ({ event }) => ('output' in event ? (event.output as Job) : null) }),
    storeUpdate: assign({ job: ({ event, context }) => (event.type === 'JOB_UPDATE' ? event.job : context.job) }),
    openJob: assign(({ event }) =>
      event.type === 'OPEN'
        ? {
            job: event.job,
            request: { endpoint: event.job.endpoint, input: event.job.input },
            fieldErrors: [],
            error: null,
            submittedAt: Date.parse(event.job.created_at) || Date.now(),
          }
        : {},
    ),
    storeCancelled: assign({
      job: ({ event, context }) => ('output' in event && event.output ? (event.output as Job) : context.job),
    }),
  },
}).createMachine({
  id: 'serviceRunner',
  context: { request: null, job: null, fieldErrors: [], error: null, submittedAt: null, idempotencyKey: '' },
  initial: 'idle',
  states: {
    idle: {},
    invalid: {},
    needsCredits: {},
    finished: {},
    failed: {},
    cancelled: {},
    validating: {
      // A second Run while one is under way is ignored (the button is disabled too).
      on: { RUN: { actions: [] } },
      invoke: {
        src: 'validate',
        input: ({ context }) => ({ request: context.request! }),
        onDone: [{ guard: 'hasFieldErrors', target: 'invalid', actions: 'markValidationErrors' }, { target: 'submitting' }],
        onError: { target: 'failed', actions: 'keepError' },
      },
    },
    submitting: {
      on: { RUN: { actions: [] } },
      entry: 'stampSubmitted',
      invoke: {
        src: 'submit',
        input: ({ context }) => ({ request: context.request!, idempotencyKey: context.idempotencyKey }),
        onDone: { target: 'running', actions: 'storeCreated' },
        onError: [
          { guard: 'isUnauthorized', target: 'needsAuth', actions: 'keepError' },
          { guard: 'isPaymentRequired', target: 'needsCredits', actions: 'keepError' },
          { guard: 'isInvalid', target: 'invalid', actions: 'markServerErrors' },
          { target: 'failed', actions: 'keepError' },
        ],
      },
    },
    needsAuth: {
      on: {
        SIGNED_IN: 'submitting',
        DISMISS: 'idle',
      },
    },
    running: {
      invoke: { src: 'watch', input: ({ context }) => ({ job: context.job! }) },
      initial: 'watching',
      on: {
        RUN: { actions: [] },
        WATCH_FAILED: { target: 'failed', actions: 'keepWatchError' },
        JOB_UPDATE: [{ guard: 'jobEnded', target: '#serviceRunner.ended', actions: 'storeUpdate' }, { actions: 'storeUpdate' }],
      },
      states: {
        watching: { on: { CANCEL: 'cancelling' } },
        cancelling: {
          invoke: {
            src: 'cancel',
            input: ({ context }) => ({ jobId: context.job!.job_id }),
            // The stream reports CANCELLED (or the final status if the job ended first).
            onDone: [{ guard: ({ event }) => isTerminal(event.output), target: '#serviceRunner.ended', actions: 'storeCancelled' }],
            onError: { target: 'watching', actions: 'keepError' },
          },
        },
      },
    },
    ended: {
      always: [
        { guard: ({ context }) => context.job?.status === 'FINISHED', target: 'finished' },
        { guard: ({ context }) => context.job?.status === 'CANCELLED', target: 'cancelled' },
        { target: 'failed' },
      ],
    },
  },
  on: {
    RUN: [
      { guard: 'preCheckFailed', target: '.invalid', actions: 'markPreCheckErrors' },
      { target: '.validating', actions: 'startRun' },
    ],
    OPEN: [
      { guard: 'openedJobRunning', target: '.running', actions: 'openJob' },
      { target: '.ended', actions: 'openJob' },
    ],
  },
});

export type RunnerActorRef = ActorRefFrom<typeof runnerMachine>;

/** The machine's state names, as exposed in `data-state`. */
export type RunnerPhase =
  'idle' | 'invalid' | 'validating' | 'submitting' | 'needsAuth' | 'needsCredits' | 'running' | 'finished' | 'failed' | 'cancelled';
