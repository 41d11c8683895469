import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { FieldError, Job } from '../../../src/api/types';
import { RunnerError, runnerMachine, type RunnerEvent, type ValidateInput } from '../../../src/components/ServiceRunner/runnerMachine';

function job(overrides: Partial<Job> = {}): Job {
  return {
    job_id: 'job-1',
    service_id: 'svc',
    endpoint: '/generate',
    status: 'QUEUED',
    progress: 0,
    message: null,
    input: { prompt: 'a lime' },
    result: null,
    error: null,
    runtime: 'local-demo',
    queue: { position: 0 },
    metrics: { queue_ms: null, run_ms: null, gpu_seconds: null, cost_credits: null },
    created_at: new Date().toISOString(),
    started_at: null,
    finished_at: null,
    output_expires_at: null,
    links: { self: '/v1/jobs/job-1', cancel: '/v1/jobs/job-1/cancel', stream: '/v1/jobs/job-1/stream' },
    ...overrides,
  };
}

interface Harness {
  submits: { input: Record<string, unknown>; key: string }[];
  cancels: string[];
  watched: string[];
  push: (event: RunnerEvent) => void;
}

/** The machine with its network actors replaced (house rule: tests swap actors). */
function start(options: { validate?: FieldError[]; submit?: (n: number) => Job | Error; cancel?: () => Job | Error } = {}) {
  const h: Harness = { submits: [], cancels: [], watched: [], push: () => {} };
  const actor = createActor(
    runnerMachine.provide({
      actors: {
        validate: fromPromise<readonly FieldError[], ValidateInput>(async () => options.validate ?? []),
        submit: fromPromise(async ({ input }) => {
          h.submits.push({ input: input.request.input, key: input.idempotencyKey });
          const outcome = options.submit ? options.submit(h.submits.length) : job();
          if (outcome instanceof Error) throw outcome;
          return outcome;
        }),
        watch: fromCallback<RunnerEvent, { job: Job }>(({ input, sendBack }) => {
          h.watched.push(input.job.job_id);
          h.push = sendBack;
          return () => {
            h.push = () => {};
          };
        }),
        cancel: fromPromise(async ({ input }) => {
          h.cancels.push(input.jobId);
          const outcome = options.cancel ? options.cancel() : job({ status: 'CANCELLED' });
          if (outcome instanceof Error) throw outcome;
          return outcome;
        }),
      },
    }),
  );
  actor.start();
  return { actor, h };
}

const run = { type: 'RUN' as const, request: { endpoint: '/generate', input: { prompt: 'a lime' } } };

describe('runner machine (docs/jobs.md: the run lifecycle)', () => {
  it('idle -> validating -> submitting -> running -> finished, following the stream', async () => {
    const { actor, h } = start();
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send(run);
    await waitFor(actor, (s) => s.matches('running'));
    expect(h.submits).toHaveLength(1);
    expect(h.watched).toEqual(['job-1']);
    expect(actor.getSnapshot().context.submittedAt).toBeTypeOf('number');

    h.push({ type: 'JOB_UPDATE', job: job({ status: 'PROCESSING', progress: 0.5 }) });
    expect(actor.getSnapshot().value).toEqual({ running: 'watching' });
    expect(actor.getSnapshot().context.job?.progress).toBe(0.5);

    h.push({ type: 'JOB_UPDATE', job: job({ status: 'FINISHED', progress: 1, result: { text: 'hi' } }) });
    expect(actor.getSnapshot().value).toBe('finished');
    expect(actor.getSnapshot().context.job?.result).toEqual({ text: 'hi' });
  });

  it('client-side validation errors stop the run before anything is sent', async () => {
    const errors = [{ name: 'prompt', rule: 'required', message: 'prompt is required' }];
    const { actor, h } = start({ validate: errors });
    actor.send(run);
    await waitFor(actor, (s) => s.matches('invalid'));
    expect(actor.getSnapshot().context.fieldErrors).toEqual(errors);
    expect(h.submits).toHaveLength(0);
  });

  it('drafts that are not values (pre-check errors) go straight to invalid', () => {
    const { actor, h } = start();
    const fieldErrors = [{ name: 'width', rule: 'type', message: 'Enter a number.' }];
    actor.send({ ...run, fieldErrors });
    expect(actor.getSnapshot().value).toBe('invalid');
    expect(actor.getSnapshot().context.fieldErrors).toEqual(fieldErrors);
    expect(h.submits).toHaveLength(0);
  });

  it('422 marks the fields the server rejected', async () => {
    const serverErrors = [{ name: 'width', rule: 'maximum', message: 'width must be at most 2048' }];
    const { actor } = start({ submit: () => new RunnerError(422, 'width must be at most 2048', serverErrors) });
    actor.send(run);
    await waitFor(actor, (s) => s.matches('invalid'));
    expect(actor.getSnapshot().context.fieldErrors).toEqual(serverErrors);
  });

  it('402 stops with the error kept for the billing link; nothing runs', async () => {
    const { actor, h } = start({ submit: () => new RunnerError(402, 'Not enough credits') });
    actor.send(run);
    await waitFor(actor, (s) => s.matches('needsCredits'));
    expect(actor.getSnapshot().context.error?.status).toBe(402);
    expect(h.watched).toHaveLength(0);
  });

  it('401 waits for a sign-in, then submits the same input with the same idempotency key', async () => {
    const { actor, h } = start({ submit: (n) => (n === 1 ? new RunnerError(401, 'Tokens not available. Login first.') : job()) });
    actor.send(run);
    await waitFor(actor, (s) => s.matches('needsAuth'));
    actor.send({ type: 'SIGNED_IN' });
    await waitFor(actor, (s) => s.matches('running'));
    expect(h.submits).toHaveLength(2);
    expect(h.submits[1]!.input).toEqual({ prompt: 'a lime' });
    expect(h.submits[1]!.key).toBe(h.submits[0]!.key);
  });

  it('401 dismissed goes back to idle without running', async () => {
    const { actor, h } = start({ submit: () => new RunnerError(401, 'no token') });
    actor.send(run);
    await waitFor(actor, (s) => s.matches('needsAuth'));
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(h.submits).toHaveLength(1);
  });

  it('every Run gets a new idempotency key', async () => {
    const { actor, h } = start();
    actor.send(run);
    await waitFor(actor, (s) => s.matches('running'));
    h.push({ type: 'JOB_UPDATE', job: job({ status: 'FINISHED' }) });
    actor.send(run);
    await waitFor(actor, (s) => s.matches('running'));
    expect(h.submits[0]!.key).not.toBe(h.submits[1]!.key);
  });

  it('Cancel calls the API and ends CANCELLED', async () => {
    const { actor, h } = start();
    actor.send(run);
    await waitFor(actor, (s) => s.matches('running'));
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toEqual({ running: 'cancelling' });
    await waitFor(actor, (s) => s.matches('cancelled'));
    expect(h.cancels).toEqual(['job-1']);
  });

  it('a job that finishes before the cancel lands ends FINISHED', async () => {
    const { actor } = start({ cancel: () => job({ status: 'FINISHED', result: 'done' }) });
    actor.send(run);
    await waitFor(actor, (s) => s.matches('running'));
    actor.send({ type: 'CANCEL' });
    await waitFor(actor, (s) => s.matches('finished'));
  });

  it('a failed cancel call keeps watching the job, with the error kept', async () => {
    const { actor } = start({ cancel: () => new RunnerError(0, 'offline') });
    actor.send(run);
    await waitFor(actor, (s) => s.matches('running'));
    actor.send({ type: 'CANCEL' });
    await waitFor(actor, (s) => s.matches({ running: 'watching' }));
    expect(actor.getSnapshot().context.error?.message).toBe('offline');
  });

  it('FAILED and TIMEOUT end in failed', async () => {
    for (const status of ['FAILED', 'TIMEOUT'] as const) {
      const { actor, h } = start();
      actor.send(run);
      await waitFor(actor, (s) => s.matches('running'));
      h.push({ type: 'JOB_UPDATE', job: job({ status, error: { code: 'x', message: 'broke' } }) });
      expect(actor.getSnapshot().value).toBe('failed');
    }
  });

  it('a stream that fails for good ends in failed with its message', async () => {
    const { actor, h } = start();
    actor.send(run);
    await waitFor(actor, (s) => s.matches('running'));
    h.push({ type: 'WATCH_FAILED', status: 404, message: 'Job not found' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error?.message).toBe('Job not found');
  });

  it('a second Run while one is under way is ignored', async () => {
    const { actor, h } = start();
    actor.send(run);
    await waitFor(actor, (s) => s.matches('running'));
    actor.send(run);
    expect(actor.getSnapshot().matches('running')).toBe(true);
    expect(h.submits).toHaveLength(1);
  });

  it('OPEN shows a finished past run, or follows a running one', () => {
    const { actor, h } = start();
    actor.send({ type: 'OPEN', job: job({ job_id: 'old', status: 'FINISHED', input: { prompt: 'x' } }) });
    expect(actor.getSnapshot().value).toBe('finished');
    expect(actor.getSnapshot().context.request).toEqual({ endpoint: '/generate', input: { prompt: 'x' } });
    actor.send({ type: 'OPEN', job: job({ job_id: 'live', status: 'PROCESSING' }) });
    expect(actor.getSnapshot().matches('running')).toBe(true);
    expect(h.watched).toEqual(['live']);
  });

  it('an unexpected submit failure ends in failed with the message', async () => {
    const { actor } = start({ submit: () => new RunnerError(500, 'An uknown error occured. Please try again.') });
    actor.send(run);
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error?.message).toBe('An uknown error occured. Please try again.');
  });
});
