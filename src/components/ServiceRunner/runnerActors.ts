import { fromCallback, fromPromise } from 'xstate';
import type { JobsClient } from '../../api/jobs';
import type { FieldError, Job, ServiceEndpoint } from '../../api/types';
import { RunnerError, type CancelInput, type RunnerEvent, type SubmitInput, type ValidateInput, type WatchInput } from './runnerMachine';

/** The runner machine's network actors on a jobs client (tests swap them with `.provide()`). */
export function createRunnerActors(options: { jobs: JobsClient; serviceId: string; endpoints: () => readonly ServiceEndpoint[] }) {
  const { jobs, serviceId } = options;
  return {
    // The same validator as the server (src/run/validate.ts), so nothing invalid is sent. It is
    // loaded at the first Run: the JSON Schema interpreter is not needed to show the form.
    validate: fromPromise<readonly FieldError[], ValidateInput>(async ({ input }) => {
      const endpoint = options.endpoints().find((e) => e.path === input.request.endpoint);
      if (!endpoint) return [];
      const { validateJobInput } = await import('../../run/validate');
      const result = validateJobInput(endpoint, input.request.input);
      return result.valid ? [] : result.errors;
    }),
    submit: fromPromise<Job, SubmitInput>(async ({ input, signal }) => {
      const result = await jobs.create(
        { service_id: serviceId, endpoint: input.request.endpoint, input: input.request.input },
        // One key per submission: a create retried after a dropped answer is not charged twice.
        { idempotencyKey: input.idempotencyKey, signal },
      );
      if (result.ok) return result.data;
      throw new RunnerError(result.status, result.error, result.fieldErrors ?? []);
    }),
    watch: fromCallback<RunnerEvent, WatchInput>(({ input, sendBack }) => {
      const subscription = jobs.subscribe(input.job.job_id, {
        onJob: (job) => sendBack({ type: 'JOB_UPDATE', job }),
        onError: (error) => {
          if (!error.willRetry) sendBack({ type: 'WATCH_FAILED', status: error.status, message: error.message });
        },
      });
      return () => subscription.close();
    }),
    cancel: fromPromise<Job | null, CancelInput>(async ({ input }) => {
      const result = await jobs.cancel(input.jobId);
      if (result.ok) return result.data;
      throw new RunnerError(result.status, result.error);
    }),
  };
}
