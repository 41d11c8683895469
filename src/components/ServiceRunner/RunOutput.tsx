import { useMemo } from 'react';
import type { Job } from '../../api/types';
import { formatString, type Strings } from '../../config/strings';
import { downloadName, formatBytes, safeMediaUrl, streamedText, viewOfResult, type MediaOutput } from './outputModel';
import * as styles from './ServiceRunner.css';

/** Runtimes that compute a stand-in output on the platform's own server (docs/jobs.md). */
const DEMO_RUNTIME = /demo/i;

export interface RunOutputProps {
  job: Job;
  apiUrl: string;
  strings: Strings['runner'];
  headingLevel: 2 | 3 | 4;
}

function Media({ media, apiUrl, strings }: { media: MediaOutput; apiUrl: string; strings: Strings['runner'] }) {
  const url = safeMediaUrl(media.url, apiUrl);
  if (!url) return null;
  const download = (
    <a href={url} download={downloadName(media)} className={styles.linkButton} data-output="download">
      {formatString(strings.output.download, { size: formatBytes(media.size) })}
    </a>
  );
  switch (media.kind) {
    case 'image':
      return (
        <figure className={styles.output}>
          <img className={styles.media} src={url} alt={strings.output.image} data-output="image" />
          {download}
        </figure>
      );
    case 'audio':
      return (
        <div className={styles.output}>
          <audio className={styles.media} src={url} controls aria-label={media.path || media.content_type} data-output="audio" />
          {download}
        </div>
      );
    case 'video':
      return (
        <div className={styles.output}>
          {/* Generated clips have no speech, so no captions exist to add. */}
          <video className={styles.media} src={url} controls loop aria-label={media.path || media.content_type} data-output="video" />
          {download}
        </div>
      );
    default:
      return <div data-output="file">{download}</div>;
  }
}

/** A job's output by type (image, audio, video, text, JSON, file), its runtime and its cost. */
export function RunOutput({ job, apiUrl, strings, headingLevel }: RunOutputProps) {
  const Heading = `h${headingLevel}` as const;
  const streaming = streamedText(job);
  const view = useMemo(() => (job.status === 'FINISHED' ? viewOfResult(job.result) : null), [job.status, job.result]);
  if (streaming === null && !view) return null;
  const empty = view && view.media.length === 0 && view.text === null && view.json === null;
  return (
    <section className={styles.output} aria-labelledby={`${job.job_id}-output`} data-lime="runner-output">
      <Heading className={styles.sectionTitle} id={`${job.job_id}-output`}>
        {strings.output.title}
      </Heading>
      {job.runtime && DEMO_RUNTIME.test(job.runtime) ? (
        <p className={styles.alert({ tone: 'info' })} data-runtime={job.runtime}>
          {formatString(strings.output.demo, { runtime: job.runtime })}
        </p>
      ) : job.runtime ? (
        <p className={styles.meta}>{formatString(strings.output.runtime, { runtime: job.runtime })}</p>
      ) : null}
      {streaming !== null ? (
        <pre className={styles.textOutput} data-streaming="true" data-output="text" aria-busy="true">
          {streaming}
        </pre>
      ) : null}
      {view?.media.map((m) => (
        <Media key={`${m.path}|${m.url}`} media={m} apiUrl={apiUrl} strings={strings} />
      ))}
      {view?.text !== null && view?.text !== undefined ? (
        <pre className={styles.textOutput} data-output="text">
          {view.text}
        </pre>
      ) : null}
      {view && view.json !== null ? (
        <pre className={styles.jsonOutput} data-output="json" aria-label={strings.output.json} tabIndex={0}>
          {JSON.stringify(view.json, null, 2)}
        </pre>
      ) : null}
      {empty ? <p className={styles.meta}>{strings.output.empty}</p> : null}
      {job.status === 'FINISHED' && job.metrics.cost_credits !== null ? (
        <p className={styles.meta}>
          {formatString(strings.output.cost, {
            credits: job.metrics.cost_credits,
            seconds: ((job.metrics.run_ms ?? 0) / 1000).toFixed(1),
          })}
        </p>
      ) : null}
    </section>
  );
}
