import { lazy, Suspense, useMemo, useState } from 'react';
import type { EndpointOutput, Job, JobLogLine } from '../../api/types';
import { formatString, type Strings } from '../../config/strings';
import { formatCredits } from '../../run/metering';
import {
  downloadName,
  formatBytes,
  formatDuration,
  jobLogLines,
  runTimings,
  safeMediaUrl,
  streamedText,
  viewOfResult,
  type MediaOutput,
} from './outputModel';
import * as styles from './ServiceRunner.css';

/** Runtimes that compute a stand-in output on the platform's own server (docs/jobs.md). */
const DEMO_RUNTIME = /demo/i;

// three.js is large: the 3D viewer loads the first time a result is a model, as its own chunk,
// and stays out of the runner's first load (docs/deploy.md, "Lean first load").
const ModelViewer = lazy(() => import('./ModelViewer').then((m) => ({ default: m.ModelViewer })));

type RunnerStrings = Strings['runner'];

function Media({ media, apiUrl, strings }: { media: MediaOutput; apiUrl: string; strings: RunnerStrings }) {
  const url = safeMediaUrl(media.url, apiUrl);
  if (!url) return null;
  const download = (
    <a href={url} download={downloadName(media)} className={styles.linkButton} data-output="download">
      {formatString(strings.output.download, { size: formatBytes(media.size) })}
    </a>
  );
  switch (media.kind) {
    case 'image':
    case 'animation':
      return (
        <figure className={styles.figure}>
          <img
            className={styles.media}
            src={url}
            alt={media.kind === 'image' ? strings.output.image : strings.output.video}
            data-output={media.kind === 'image' ? 'image' : 'video'}
          />
          {media.kind === 'animation' ? <figcaption className={styles.meta}>{strings.output.animation}</figcaption> : null}
          {download}
        </figure>
      );
    case 'audio':
      return (
        <figure className={styles.figure}>
          <audio className={styles.audio} src={url} controls preload="metadata" aria-label={strings.output.audio} data-output="audio" />
          {download}
        </figure>
      );
    case 'video':
      return (
        <figure className={styles.figure}>
          {/* Generated clips have no speech, so no captions exist to add. */}
          <video className={styles.media} src={url} controls loop aria-label={strings.output.video} data-output="video" />
          {download}
        </figure>
      );
    case 'model':
      return (
        <figure className={styles.figure}>
          <Suspense fallback={<p className={styles.meta}>{strings.output.modelLoading}</p>}>
            <ModelViewer url={url} label={strings.output.model} strings={strings} />
          </Suspense>
          {download}
        </figure>
      );
    default:
      return <div data-output="file">{download}</div>;
  }
}

/** The raw JSON with a copy button (the text is what `JSON.stringify` writes, indented). */
function JsonBlock({ value, strings }: { value: unknown; strings: RunnerStrings }) {
  const json = useMemo(() => JSON.stringify(value, null, 2), [value]);
  const [copied, setCopied] = useState(false);
  return (
    <div className={styles.jsonBlock}>
      <button
        type="button"
        className={styles.button({ tone: 'small' })}
        data-output="copy-json"
        onClick={() => {
          void navigator.clipboard?.writeText(json).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
          });
        }}
      >
        {copied ? strings.output.copied : strings.output.copyJson}
      </button>
      <span className={styles.visuallyHidden} role="status">
        {copied ? strings.output.copied : ''}
      </span>
      <pre className={styles.jsonOutput} data-output="json" aria-label={strings.output.json} tabIndex={0}>
        {json}
      </pre>
    </div>
  );
}

export interface ResultViewProps {
  result: unknown;
  /** The endpoint's declared output, to label a GIF from a video endpoint as a clip. */
  output?: EndpointOutput;
  runtime?: string | null;
  apiUrl: string;
  strings: RunnerStrings;
}

/** A finished result by type: media (image, clip, audio, video, 3D model, file), text and JSON. */
export function ResultView({ result, output, runtime, apiUrl, strings }: ResultViewProps) {
  const view = useMemo(() => viewOfResult(result, output?.type), [result, output?.type]);
  const empty = view.media.length === 0 && view.text === null && view.json === null;
  return (
    <>
      {view.media.map((m) => (
        <Media key={`${m.path}|${m.url}`} media={m} apiUrl={apiUrl} strings={strings} />
      ))}
      {view.text !== null ? (
        <pre className={styles.textOutput} data-output="text">
          {view.text}
        </pre>
      ) : null}
      {view.json !== null ? <JsonBlock value={view.json} strings={strings} /> : null}
      {empty ? <p className={styles.meta}>{strings.output.empty}</p> : null}
      {/* Where it ran follows the result, which comes first in view (issue 39, item 5). */}
      {runtime && DEMO_RUNTIME.test(runtime) ? (
        <p className={styles.alert({ tone: 'info' })} data-runtime={runtime}>
          {formatString(strings.output.demo, { runtime })}
        </p>
      ) : runtime ? (
        <p className={styles.meta}>{formatString(strings.output.runtime, { runtime })}</p>
      ) : null}
    </>
  );
}

export interface RunOutputProps {
  job: Job;
  apiUrl: string;
  strings: RunnerStrings;
  headingLevel: 2 | 3 | 4;
  output?: EndpointOutput;
  /** Heading of the section. @default strings.output.title */
  title?: string;
  /** A line under the heading (what an example is). */
  note?: string;
  /** The container's lines for the job when the envelope does not carry them (useJobLogs). */
  logs?: readonly JobLogLine[];
}

/** Queue, cold start and run time of a finished run, in one line. */
function RunTimings({ job, strings }: { job: Job; strings: RunnerStrings }) {
  const t = runTimings(job);
  const parts = [
    t.queue !== null ? formatString(strings.output.queueTime, { time: formatDuration(t.queue) }) : null,
    t.coldStart === 0 ? strings.output.warmStart : null,
    t.coldStart ? formatString(strings.output.coldStart, { time: formatDuration(t.coldStart) }) : null,
    t.run !== null ? formatString(strings.output.runTime, { time: formatDuration(t.run) }) : null,
  ].filter((p): p is string => p !== null);
  return parts.length ? (
    <p className={styles.meta} data-output="timings">
      {parts.join(' · ')}
    </p>
  ) : null;
}

/**
 * The lines the container wrote while the job ran: a labelled box, monospace, focusable so the
 * keyboard scrolls it. `aria-live` is off: the lines arrive with the finished job, not as news.
 */
function JobLog({ lines, strings }: { lines: readonly JobLogLine[]; strings: RunnerStrings }) {
  if (lines.length === 0) return null;
  return (
    <pre className={styles.jsonOutput} data-output="logs" role="log" aria-live="off" aria-label={strings.output.logs} tabIndex={0}>
      {lines.map((l) => `${l.stream === 'stderr' ? 'ERR ' : ''}${l.text}`).join('\n')}
    </pre>
  );
}

/** A job's output by type, its runtime, timings, container log and cost; streamed text while it runs. */
export function RunOutput({ job, apiUrl, strings, headingLevel, output, title, note, logs }: RunOutputProps) {
  const Heading = `h${headingLevel}` as const;
  const streaming = streamedText(job);
  const finished = job.status === 'FINISHED';
  if (streaming === null && !finished) return null;
  return (
    <section className={styles.output} aria-labelledby={`${job.job_id}-output`} data-lime="runner-output">
      <Heading className={styles.sectionTitle} id={`${job.job_id}-output`}>
        {title ?? strings.output.title}
      </Heading>
      {note ? <p className={styles.meta}>{note}</p> : null}
      {streaming !== null ? (
        <pre className={styles.textOutput} data-streaming="true" data-output="text" aria-busy="true">
          {streaming}
        </pre>
      ) : null}
      {finished ? <ResultView result={job.result} output={output} runtime={job.runtime} apiUrl={apiUrl} strings={strings} /> : null}
      {finished && job.metrics.cost_credits !== null ? (
        <p className={styles.meta}>
          {formatString(strings.output.cost, {
            credits: formatCredits(job.metrics.cost_credits),
            seconds: ((job.metrics.run_ms ?? 0) / 1000).toFixed(1),
          })}
        </p>
      ) : null}
      {finished ? <RunTimings job={job} strings={strings} /> : null}
      {finished ? <JobLog lines={logs ?? jobLogLines(job)} strings={strings} /> : null}
    </section>
  );
}
