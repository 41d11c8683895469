import { lazy, Suspense, useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import type { Job, ModelDescriptor, ServiceEndpoint } from '../../api/types';
import { useCatalogue, useCatalogueState } from '../../catalogue/react';
import { usePlatform } from '../../config/PlatformProvider';
import { formatString, type Strings } from '../../config/strings';
import { useThemeClass } from '../../config/useThemeClass';
import { BILLING_PATH } from '../../pricing/constants';
import { runBlocker } from '../../run/endpoints';
import { formatCredits } from '../../run/metering';
import { RecentRuns, summariseInput } from './RecentRuns';
import { RunnerField } from './RunnerFields';
import { ResultView, RunOutput } from './RunOutput';
import { runPrice, type RunPrice } from './runPrice';
import { runDetailText, runStatusText } from './statusText';
import { useJobLogs, useRecentRuns, useElapsedSeconds, useRunEstimate } from './useRunnerData';
import { useServiceRunner, type RunnerActors } from './useServiceRunner';
import type { JobsClient } from '../../api/jobs';
import * as styles from './ServiceRunner.css';

// The sign-in overlay (its machine and screens) loads the first time a run needs a sign-in:
// most runs are by signed-in visitors, and the service page's first load stays smaller
// (docs/deploy.md, "Lean first load").
const AuthDialog = lazy(() => import('../AuthDialog/AuthDialog').then((m) => ({ default: m.AuthDialog })));

/** Props of `ServiceRunner`. */
export interface ServiceRunnerProps {
  /** Id of the service to run. */
  serviceId: string;
  /**
   * The service itself, when the page already has it.
   * @default looked up by `serviceId` in the platform's catalogue
   */
  service?: ModelDescriptor;
  /**
   * Endpoint path selected at first, when the service has several.
   * @default the first runnable endpoint
   */
  defaultEndpoint?: string;
  /** Input the form starts with; fields it leaves out take their defaults. */
  defaultInput?: Record<string, unknown>;
  /**
   * Level of the widget's heading; the output and recent-runs headings are one level below.
   * @default 2
   */
  headingLevel?: 2 | 3;
  /**
   * Keeps the heading for assistive technology only, where the page already shows the runner's
   * name (the site's "Playground" tab), so the result starts higher in the first view.
   * @default false
   */
  titleHidden?: boolean;
  /**
   * Lists the caller's recent runs of the service (reopen, run again).
   * @default true
   */
  showRecentRuns?: boolean;
  /** Called with every new envelope of the job on screen (created, progress, final). */
  onJobChange?: (job: Job) => void;
  /**
   * Where the sign-in overlay renders (inside a shadow root for the web component).
   * @default in place
   */
  portalContainer?: Element | DocumentFragment | null;
  /** Replaces the network actors (another back end, or tests). */
  actors?: Partial<RunnerActors>;
  /** Jobs client to use. @default one for the platform's apiUrl and the signed-in session */
  jobs?: JobsClient;
  /** Extra class on the root element. */
  className?: string;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The price of a run before it starts (runPrice.ts), for everyone, signed in or not. */
function RunPriceText({ price, strings }: { price: RunPrice; strings: Strings['runner']['estimate'] }) {
  switch (price.kind) {
    case 'measured':
      return (
        <>
          <span className={styles.estimateValue}>{formatString(strings.credits, { credits: formatCredits(price.credits) })}</span>
          <span className={styles.estimateValue}>{formatString(strings.time, { seconds: price.seconds.toFixed(1) })}</span>
          <span>({price.basedOn === 1 ? strings.fromRecentOne : formatString(strings.fromRecent, { count: price.basedOn })})</span>
          <span>{formatString(strings.perSecond, price.perSecond)}</span>
        </>
      );
    case 'example':
      return (
        <>
          <span className={styles.estimateValue}>{formatString(strings.perRun, { credits: formatCredits(price.credits) })}</span>
          <span>({formatString(strings.fromExample, { seconds: price.seconds })})</span>
          <span>{formatString(strings.perSecond, price.perSecond)}</span>
        </>
      );
    case 'perSecond':
      // No measured run and no timed example: the price basis, never a guessed duration (the
      // guess of 5 s said 0.35 credits where the first run cost 0.14).
      return (
        <>
          <span className={styles.estimateValue}>{formatString(strings.perSecond, price.perSecond)}</span>
          <span>({strings.fromPricing})</span>
        </>
      );
    default:
      return <span>{strings.unknown}</span>;
  }
}

/**
 * The output column before the first run: the caller's latest run of this endpoint, else the
 * endpoint's example, else a placeholder saying where the output will appear.
 */
function BeforeFirstRun({
  lastRun,
  endpoint,
  apiUrl,
  strings,
  headingLevel,
  serviceName,
}: {
  lastRun: Job | null;
  endpoint: ServiceEndpoint | undefined;
  apiUrl: string;
  strings: Strings['runner'];
  headingLevel: 3 | 4;
  serviceName: string;
}) {
  const titleId = useId();
  const Heading = `h${headingLevel}` as const;
  if (lastRun) {
    const time = Number.isNaN(Date.parse(lastRun.created_at)) ? '' : timeFormat.format(Date.parse(lastRun.created_at));
    return (
      <RunOutput
        job={lastRun}
        apiUrl={apiUrl}
        strings={strings}
        headingLevel={headingLevel}
        output={endpoint?.output}
        title={strings.output.lastRun}
        note={formatString(strings.output.lastRunNote, { summary: summariseInput(lastRun.input, serviceName), time })}
      />
    );
  }
  if (endpoint?.example) {
    return (
      <section className={styles.output} aria-labelledby={titleId} data-lime="runner-output" data-example="true">
        <Heading className={styles.sectionTitle} id={titleId}>
          {strings.output.example}
        </Heading>
        {/* The result first, its explanation under it: the result shows in the first view (issue 39, item 5). */}
        <ResultView
          result={endpoint.example.result}
          output={endpoint.output}
          runtime={endpoint.example.runtime}
          apiUrl={apiUrl}
          strings={strings}
        />
        <p className={styles.meta}>{strings.output.exampleNote}</p>
      </section>
    );
  }
  return (
    <section className={styles.output} aria-labelledby={titleId} data-lime="runner-output" data-example="none">
      <Heading className={styles.sectionTitle} id={titleId}>
        {strings.output.title}
      </Heading>
      <p className={styles.placeholder}>{strings.output.placeholder}</p>
    </section>
  );
}

/** Finds the service in the shared catalogue when no `service` prop is given. */
function useServiceById(serviceId: string, given: ModelDescriptor | undefined) {
  const catalogue = useCatalogue();
  const state = useCatalogueState(catalogue);
  useEffect(() => {
    if (!given) catalogue.ensureLoaded().catch((error: unknown) => console.error('Could not load the service catalogue', error));
  }, [catalogue, given]);
  const found = useMemo(() => given ?? state.models.find((m) => m.id === serviceId), [given, state.models, serviceId]);
  return { service: found, loading: !found && state.loading, failed: !found && state.status === 'error' };
}

/**
 * The playground of a service (docs/jobs.md): a form generated from the endpoint's parameters,
 * the estimated cost, Run (button or Ctrl/Cmd+Enter), live status with progress and streamed
 * text, Cancel, the output by type, and the caller's recent runs. A 401 opens the sign-in
 * overlay and runs after sign-in; 402 links to billing; 422 marks the fields.
 */
export function ServiceRunner(props: ServiceRunnerProps) {
  const { strings } = usePlatform();
  const { service, loading, failed } = useServiceById(props.serviceId, props.service);
  const themeClass = useThemeClass();
  const className = [themeClass, styles.root, props.className].filter(Boolean).join(' ');
  if (!service) {
    return (
      <section
        className={className}
        data-lime="service-runner"
        data-state={loading ? 'loading' : failed ? 'error' : 'missing'}
        aria-busy={loading || undefined}
      >
        {/* Offline is not "not found": say which. */}
        <p role="status">
          {loading ? strings.common.loading : failed ? strings.runner.errors.loadFailed : strings.runner.errors.unknownService}
        </p>
      </section>
    );
  }
  return <RunnerBody {...props} service={service} className={className} />;
}

function RunnerBody(props: ServiceRunnerProps & { service: ModelDescriptor; className: string }) {
  const { service, headingLevel = 2 } = props;
  const platform = usePlatform();
  const s = platform.strings.runner;
  const titleId = useId();
  const formId = useId();
  const runner = useServiceRunner({
    serviceId: service.id,
    endpoints: service.endpoints ?? [],
    defaultEndpoint: props.defaultEndpoint,
    defaultInput: props.defaultInput,
    actors: props.actors,
    jobs: props.jobs,
    onJobChange: props.onJobChange,
  });
  const { phase, job, busy } = runner;
  // Mounted from the first sign-in request on, so its closing and a second request behave as before.
  const [authWanted, setAuthWanted] = useState(false);
  if (phase === 'needsAuth' && !authWanted) setAuthWanted(true);

  // Recent runs and the estimate reload when a run ends (a new run time, a new list entry).
  const [refreshKey, setRefreshKey] = useState(0);
  const ended = phase === 'finished' || phase === 'failed' || phase === 'cancelled';
  useEffect(() => {
    if (ended) setRefreshKey((k) => k + 1);
  }, [ended, job?.job_id]);
  // Loaded even when the list is hidden: the latest run is the example before the first run.
  const recent = useRecentRuns(runner.jobs, service.id, refreshKey);
  const estimate = useRunEstimate(runner.jobs, service.id, runner.endpoint?.path, refreshKey);
  const price = runPrice(estimate, runner.endpoint?.example, service.demo === true);
  const running = phase === 'running' || phase === 'submitting';
  const endedAt = job?.finished_at ? Date.parse(job.finished_at) : null;
  const elapsed = useElapsedSeconds(runner.submittedAt, running, endedAt);
  const jobLogs = useJobLogs(runner.jobs, job);

  const name = service.display_name || platform.strings.common.unknownModel;
  const lastRun =
    recent.status === 'ready' ? (recent.value.find((j) => j.status === 'FINISHED' && j.endpoint === runner.endpoint?.path) ?? null) : null;
  const Heading = `h${headingLevel}` as const;
  const sub = (headingLevel + 1) as 3 | 4;

  // Nothing to offer a form for: no endpoint, or a container deployment that is not running
  // (the descriptor's coarse state); say why instead of a Playground that cannot run.
  const blocker = runner.endpoints.length === 0 ? 'no-endpoints' : runBlocker(service);
  if (blocker) {
    return (
      <section
        className={props.className}
        aria-labelledby={titleId}
        data-lime="service-runner"
        data-state="unavailable"
        data-blocker={blocker}
      >
        <Heading className={styles.title} id={titleId}>
          {s.title}
        </Heading>
        <p>
          {blocker === 'starting'
            ? s.errors.deploymentStarting
            : blocker === 'unavailable'
              ? s.errors.deploymentUnavailable
              : s.errors.noEndpoints}
        </p>
      </section>
    );
  }

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (!busy) runner.run();
    }
  };
  const statusText = runStatusText(phase, job, s);
  const detail = phase === 'running' ? runDetailText(job) : null;
  const progress = job && phase === 'running' ? Math.round(job.progress * 100) : null;
  const invalidCount = Object.keys(runner.fieldErrors).length;

  return (
    <section
      className={props.className}
      aria-labelledby={titleId}
      data-lime="service-runner"
      data-state={phase}
      data-job-status={job?.status}
    >
      <div className={props.titleHidden ? styles.headerUntitled : styles.header}>
        <Heading className={props.titleHidden ? styles.visuallyHidden : styles.title} id={titleId}>
          {s.title}
        </Heading>
        {runner.endpoints.length > 1 ? (
          <label className={styles.switchRow}>
            <span className={styles.label}>{s.endpoint}</span>
            <select
              className={styles.select}
              value={runner.endpoint?.path}
              disabled={busy}
              onChange={(e) => runner.selectEndpoint(e.target.value)}
            >
              {runner.endpoints.map((e) => (
                <option key={e.path} value={e.path}>
                  {e.path}
                  {e.description ? ` · ${e.description}` : ''}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>

      <div className={styles.layout}>
        <form
          id={formId}
          className={styles.form}
          aria-label={formatString(s.label, { name })}
          noValidate
          onKeyDown={onKeyDown}
          onSubmit={(event) => {
            event.preventDefault();
            if (!busy) runner.run();
          }}
        >
          {runner.fromExample ? (
            <p className={styles.hint} data-lime="runner-example-input">
              {s.exampleInput}
            </p>
          ) : null}
          {runner.fields.map((field) => (
            <RunnerField
              key={`${runner.endpoint?.path}|${field.name}`}
              field={field}
              value={runner.draft[field.name] ?? null}
              error={runner.fieldErrors[field.name]}
              onChange={(value) => runner.setValue(field.name, value)}
              upload={async (file) => {
                const result = await runner.jobs.uploadFile(file, file.name);
                return result.ok ? { ok: true, data: result.data } : { ok: false, error: result.error };
              }}
              apiUrl={platform.apiUrl}
              strings={s}
              disabled={busy}
            />
          ))}
        </form>

        <div className={styles.outputPane} data-lime="runner-output-pane">
          {/* Run and its price head the output column (issue 39, item 5): in the wide layout that
              column sticks in view, so Run stays reachable without a bar stuck over the form's
              fields; in one column it follows the form. The button submits the form by its id. */}
          <div className={styles.actionBar} data-lime="runner-actions">
            <p className={styles.estimate} data-lime="runner-estimate">
              {price.kind === 'demo' ? (
                <span className={styles.estimateValue}>{s.estimate.demoFree}</span>
              ) : (
                <>
                  <span>{s.estimate.label}:</span>
                  <RunPriceText price={price} strings={s.estimate} />
                </>
              )}
            </p>

            <div className={styles.actions}>
              <button
                type="submit"
                form={formId}
                className={styles.button({ tone: 'primary' })}
                disabled={busy}
                aria-keyshortcuts="Control+Enter Meta+Enter"
              >
                {s.run}
              </button>
              {phase === 'running' ? (
                <button type="button" className={styles.button({ tone: 'secondary' })} disabled={runner.cancelling} onClick={runner.cancel}>
                  {runner.cancelling ? s.cancelling : s.cancel}
                </button>
              ) : null}
              <button type="button" className={styles.button({ tone: 'small' })} disabled={busy} onClick={runner.reset}>
                {s.reset}
              </button>
              <span className={styles.hint}>{s.runShortcut}</span>
            </div>
          </div>
          <div className={styles.status} data-lime="runner-status">
            <div className={styles.statusLine}>
              <span role="status" aria-live="polite" aria-atomic="true">
                {phase === 'invalid' && invalidCount > 0 ? s.status.invalid : statusText}
              </span>
              {detail ? <span className={styles.hint}>{detail}</span> : null}
              {elapsed !== null && phase !== 'idle' ? <span>{formatString(s.status.elapsed, { seconds: elapsed })}</span> : null}
            </div>
            {progress !== null ? (
              <progress
                className={styles.progressBar}
                max={100}
                value={progress}
                aria-label={s.status.progress}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={progress}
                aria-valuetext={`${progress}%`}
              />
            ) : null}
            {phase === 'needsCredits' ? (
              <p className={styles.alert({ tone: 'warning' })} role="alert">
                {runner.error?.message || s.errors.credits}
                <a
                  href={BILLING_PATH}
                  className={styles.linkButton}
                  onClick={(event) => {
                    event.preventDefault();
                    platform.navigate(BILLING_PATH);
                  }}
                >
                  {s.errors.buyCredits}
                </a>
              </p>
            ) : null}
            {phase === 'failed' ? (
              <p className={styles.alert({ tone: 'danger' })} role="alert">
                {formatString(s.errors.failed, { message: job?.error?.message ?? runner.error?.message ?? s.status.FAILED })}
              </p>
            ) : null}
          </div>

          {job ? (
            <RunOutput job={job} apiUrl={platform.apiUrl} strings={s} headingLevel={sub} output={runner.endpoint?.output} logs={jobLogs} />
          ) : (
            <BeforeFirstRun
              lastRun={lastRun}
              endpoint={runner.endpoint}
              apiUrl={platform.apiUrl}
              strings={s}
              headingLevel={sub}
              serviceName={name}
            />
          )}
        </div>
      </div>

      {props.showRecentRuns !== false ? (
        <RecentRuns
          runs={recent}
          serviceName={name}
          strings={s}
          headingLevel={sub}
          disabled={busy}
          onOpen={runner.open}
          onRunAgain={runner.runAgain}
        />
      ) : null}

      {authWanted ? (
        <Suspense fallback={null}>
          <AuthDialog
            mode="overlay"
            open={phase === 'needsAuth'}
            portalContainer={props.portalContainer}
            onAuthenticated={runner.signedIn}
            onClose={() => {
              // Closing after a sign-in is handled by onAuthenticated; only a dismissal goes back.
              if (runner.actorRef.getSnapshot().matches('needsAuth')) runner.dismissAuth();
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
