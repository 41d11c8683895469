import { createHttpRuntime } from '../runtimes/http/httpRuntime';
import { CONTAINER_RUNTIME } from './runtimeRegistry';
import { RuntimeError, type Runtime } from '../runtimes/runtime';
import type { Deployment, InstanceSlot } from './deployment';
import type { LogLine } from './logRing';

// How a job runs on a container deployment (docs/publishing.md, "The container contract"): it
// takes a slot on a running instance (a cold start when there is none), then goes through the
// HTTP runtime exactly like a service with its own URL. The job's cold start and the log lines
// its instance wrote while it ran are handed to the queue through the observer.
//
// It lives with the other runtimes (runtimes/http, runtimes/local, runtimes/models), not in
// hosting/: a runtime is how one job runs, and this one is the HTTP runtime pointed at an
// instance. Hosting (server/hosting/) keeps the deployments the instances come from; the Docker
// fleet hands each job this runtime over its Deployment (hosting/dockerFleet.ts, runtimeFor).

/**
 * Lines written just after the answer still belong to the job: the engine's log stream lags
 * (50–150 ms measured here under load). The job's instance slot and its result do not wait for
 * them: the job's subscription stays open this long after the answer, in the background.
 */
export const LOG_LATE_MS = 500;

export interface ContainerJobObserver {
  /** Once the job holds an instance: 0 and `warm` when one was already running. */
  coldStart?(jobId: string, coldStartMs: number, tier: InstanceSlot['coldStartTier']): void;
  /** Each line the job's instance writes while the job runs. */
  log?(jobId: string, line: LogLine, deploymentId: string): void;
  /** The job's run ended: its lines are stored before its final status is (awaited). */
  jobDone?(jobId: string): Promise<void>;
}

/**
 * The instance's address on its network is the runner's business: a job's message (which the
 * caller reads) names the instance instead ("The service at instance 3f2a… is unreachable").
 * The HTTP runtime's own messages already do (its `shownAs`); this catches any other error.
 */
function withoutAddress(error: unknown, baseUrl: string, instance: string): unknown {
  if (!(error instanceof Error)) return error;
  const { origin, host } = new URL(baseUrl);
  if (!error.message.includes(host)) return error;
  const message = error.message.replaceAll(origin, `instance ${instance}`).replaceAll(host, `instance ${instance}`);
  return error instanceof RuntimeError ? new RuntimeError(error.code, message, { cause: error }) : new Error(message, { cause: error });
}

export function createContainerRuntime(deployment: Deployment, observer: ContainerJobObserver = {}): Runtime {
  return {
    name: CONTAINER_RUNTIME.name,
    async run(input, ctx) {
      const slot = await deployment.acquire(ctx.signal).catch((error: Error) => {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        throw new RuntimeError('deployment_unavailable', error.message, { cause: error });
      });
      observer.coldStart?.(ctx.jobId, slot.coldStartMs, slot.coldStartTier);
      if (slot.coldStartMs > 0) ctx.progress(0, `Cold start: ${slot.coldStartMs} ms`);
      const unsubscribe = deployment.logs.subscribe((line) => {
        if (line.instance === slot.instance && line.stream !== 'runner') observer.log?.(ctx.jobId, line, deployment.id);
      });
      // The platform chose the container's address itself, so a private address is expected; the
      // job's messages name the instance, never that address.
      const http = createHttpRuntime(
        { base_url: slot.baseUrl },
        { policy: { allowPrivateAddresses: true }, followUps: 'own-origin', shownAs: `instance ${slot.instance}` },
      );
      try {
        return await http.run(input, ctx);
      } catch (error) {
        // The instance stopped answering: find out whether it died, and why.
        if (error instanceof RuntimeError && error.code === 'unreachable') await deployment.instanceFailed(slot.instance);
        throw withoutAddress(error, slot.baseUrl, slot.instance);
      } finally {
        slot.release();
        // What arrived so far is stored before the job's final status; late lines follow.
        await observer.jobDone?.(ctx.jobId).catch(() => undefined);
        setTimeout(() => {
          unsubscribe();
          void observer.jobDone?.(ctx.jobId).catch(() => undefined);
        }, LOG_LATE_MS).unref();
      }
    },
  };
}
