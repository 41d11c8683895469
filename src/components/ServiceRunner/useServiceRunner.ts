import { runnableEndpoints } from '../../run/endpoints';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createJobsClient, type JobsClient } from '../../api/jobs';
import type { FieldError, Job, ServiceEndpoint } from '../../api/types';
import { useAuth } from '../../auth/AuthProvider';
import { usePlatform } from '../../config/PlatformProvider';
import { useApiClient } from '../../config/useApiClient';
import { endpointInputSchema } from '../../run/schema';
import { buildInput, errorsByField, fieldsFromSchema, initialDraft, type Draft, type DraftValue, type FieldSpec } from './formModel';
import { createRunnerActors } from './runnerActors';
import { runnerMachine, type RunnerActorRef, type RunnerPhase } from './runnerMachine';

export type RunnerActors = ReturnType<typeof createRunnerActors>;

/** Options of `useServiceRunner`: the service, its endpoints, the default endpoint and input, and the jobs client. */
export interface UseServiceRunnerOptions {
  /** The service to run. */
  serviceId: string;
  /** Its endpoints (only POST endpoints with parameters are runnable). */
  endpoints: readonly ServiceEndpoint[];
  /** Endpoint path selected at first. @default the first endpoint */
  defaultEndpoint?: string;
  /**
   * Input the form starts with (e.g. from a past run); missing fields take their defaults.
   * @default the endpoint's example input, when it has one
   */
  defaultInput?: Record<string, unknown>;
  /** Replaces the network actors (another back end, or tests). */
  actors?: Partial<RunnerActors>;
  /** Jobs client to use. @default one for the platform's apiUrl and the session's token */
  jobs?: JobsClient;
  /** Called with every new envelope of the job on screen. */
  onJobChange?: (job: Job) => void;
}

/** The jobs client for the platform's API URL and the current session (`useApiClient`). */
export function useJobsClient(provided?: JobsClient): JobsClient {
  const made = useApiClient(createJobsClient, useAuth().store);
  return provided ?? made;
}

export { runnableEndpoints } from '../../run/endpoints';

/**
 * Headless logic of the service runner: the form (fields from the endpoint's JSON Schema,
 * drafts, field errors) and the run lifecycle machine. Components render what it returns.
 */
export function useServiceRunner(options: UseServiceRunnerOptions) {
  const { strings } = usePlatform();
  const jobs = useJobsClient(options.jobs);
  const endpoints = useMemo(() => runnableEndpoints(options.endpoints), [options.endpoints]);
  const endpointsRef = useRef(endpoints);
  endpointsRef.current = endpoints;

  const [endpointPath, setEndpointPath] = useState(() => options.defaultEndpoint ?? endpoints[0]?.path ?? '');
  const endpoint = endpoints.find((e) => e.path === endpointPath) ?? endpoints[0];
  const fields: FieldSpec[] = useMemo(() => (endpoint ? fieldsFromSchema(endpointInputSchema(endpoint)) : []), [endpoint]);
  // Replicate's first view: the form opens on the endpoint's example, shown beside its output.
  const [draft, setDraft] = useState<Draft>(() => initialDraft(fields, options.defaultInput ?? endpoint?.example?.input));
  /** True while the form holds the example input as it was filled in (no edit, open or reset since). */
  const [fromExample, setFromExample] = useState(() => !options.defaultInput && !!endpoint?.example?.input);

  const logic = useMemo(
    () =>
      runnerMachine.provide({
        actors: { ...createRunnerActors({ jobs, serviceId: options.serviceId, endpoints: () => endpointsRef.current }), ...options.actors },
      }),
    // The machine is made once per mount; the client and service are fixed for its lifetime.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const actorRef: RunnerActorRef = useActorRef(logic);
  const phase = useSelector(actorRef, (s) => (typeof s.value === 'string' ? s.value : Object.keys(s.value)[0]) as RunnerPhase);
  const cancelling = useSelector(actorRef, (s) => s.matches({ running: 'cancelling' }));
  const job = useSelector(actorRef, (s) => s.context.job);
  const rawErrors = useSelector(actorRef, (s) => s.context.fieldErrors);
  const error = useSelector(actorRef, (s) => s.context.error);
  const submittedAt = useSelector(actorRef, (s) => s.context.submittedAt);
  const fieldErrors = useMemo(() => errorsByField(rawErrors), [rawErrors]);

  const onJobChange = options.onJobChange;
  useEffect(() => {
    if (job) onJobChange?.(job);
  }, [job, onJobChange]);

  const selectEndpoint = useCallback(
    (path: string) => {
      const next = endpoints.find((e) => e.path === path);
      if (!next) return;
      setEndpointPath(path);
      setDraft(initialDraft(fieldsFromSchema(endpointInputSchema(next)), next.example?.input));
      setFromExample(!!next.example?.input);
    },
    [endpoints],
  );

  const setValue = useCallback((name: string, value: DraftValue) => {
    setDraft((d) => ({ ...d, [name]: value }));
    setFromExample(false);
  }, []);

  const run = useCallback(() => {
    if (!endpoint) return;
    const built = buildInput(fields, draft, { notANumber: strings.runner.errors.notANumber, notJson: strings.runner.errors.notJson });
    actorRef.send({ type: 'RUN', request: { endpoint: endpoint.path, input: built.input }, fieldErrors: built.errors });
  }, [actorRef, endpoint, fields, draft, strings]);

  /** Shows a past run: its input in the form, its status and output below. */
  const open = useCallback(
    (past: Job) => {
      const target = endpoints.find((e) => e.path === past.endpoint);
      if (target) {
        setEndpointPath(target.path);
        setDraft(initialDraft(fieldsFromSchema(endpointInputSchema(target)), past.input));
        setFromExample(false);
      }
      actorRef.send({ type: 'OPEN', job: past });
    },
    [actorRef, endpoints],
  );

  /** Runs a past job's input again on its endpoint. */
  const runAgain = useCallback(
    (past: Job) => {
      const target = endpoints.find((e) => e.path === past.endpoint);
      if (!target) return;
      setEndpointPath(target.path);
      setDraft(initialDraft(fieldsFromSchema(endpointInputSchema(target)), past.input));
      setFromExample(false);
      actorRef.send({ type: 'RUN', request: { endpoint: target.path, input: past.input } });
    },
    [actorRef, endpoints],
  );

  const reset = useCallback(() => {
    setDraft(initialDraft(fields));
    setFromExample(false);
  }, [fields]);

  return {
    actorRef,
    jobs,
    phase,
    cancelling,
    busy: phase === 'validating' || phase === 'submitting' || phase === 'running',
    job,
    error,
    fieldErrors: fieldErrors as Record<string, FieldError>,
    submittedAt,
    endpoints,
    endpoint,
    selectEndpoint,
    fields,
    draft,
    /** The form holds the endpoint's example input, untouched: the Playground says so. */
    fromExample,
    setValue,
    run,
    cancel: useCallback(() => actorRef.send({ type: 'CANCEL' }), [actorRef]),
    signedIn: useCallback(() => actorRef.send({ type: 'SIGNED_IN' }), [actorRef]),
    dismissAuth: useCallback(() => actorRef.send({ type: 'DISMISS' }), [actorRef]),
    open,
    runAgain,
    reset,
  };
}

/** What `useServiceRunner` returns: the form, the run's phase and output, and the actions. */
export type ServiceRunnerState = ReturnType<typeof useServiceRunner>;
