import type { Job } from '../../api/types';
import { formatString, type Strings } from '../../config/strings';
import type { Loadable } from './useRunnerData';
import * as styles from './ServiceRunner.css';

export interface RecentRunsProps {
  runs: Loadable<Job[]>;
  strings: Strings['runner'];
  headingLevel: 2 | 3 | 4;
  disabled?: boolean;
  onOpen: (job: Job) => void;
  onRunAgain: (job: Job) => void;
}

const timeFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** Inputs that name the run best, in order; then any other text that is not a file. */
const SUMMARY_KEYS = ['prompt', 'text', 'input', 'query', 'question'];
const isFileValue = (v: string) => /^(data:|https?:\/\/|\/media\/)/i.test(v.trim());

/** A short line for a past input: the prompt (or first text that is not a file), else its JSON. */
export function summariseInput(input: Record<string, unknown>): string {
  const texts = (values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v.trim() !== '' && !isFileValue(v));
  const text = texts(SUMMARY_KEYS.map((k) => input[k])) ?? texts(Object.values(input));
  if (text) return text;
  const messages = input.messages;
  if (Array.isArray(messages)) {
    const last = messages[messages.length - 1] as { content?: unknown } | undefined;
    if (typeof last?.content === 'string') return last.content;
  }
  return JSON.stringify(input);
}

/** The caller's latest runs of the service: reopen one, or run its input again. */
export function RecentRuns({ runs, strings, headingLevel, disabled, onOpen, onRunAgain }: RecentRunsProps) {
  const Heading = `h${headingLevel}` as const;
  const s = strings.recent;
  // Anonymous visitors have no runs to list; say nothing rather than an error.
  if (runs.status === 'error' && runs.httpStatus === 401) return null;
  return (
    <section className={styles.recent} aria-label={s.title} data-lime="runner-recent">
      <Heading className={styles.sectionTitle}>{s.title}</Heading>
      {runs.status === 'loading' ? <p className={styles.meta}>{s.loading}</p> : null}
      {runs.status === 'error' ? <p className={styles.meta}>{s.loadFailed}</p> : null}
      {runs.status === 'ready' && runs.value.length === 0 ? <p className={styles.meta}>{s.empty}</p> : null}
      {runs.status === 'ready' && runs.value.length > 0 ? (
        <ul className={styles.list}>
          {runs.value.map((job) => {
            const summary = summariseInput(job.input);
            const when = formatString(s.when, {
              status: strings.status[job.status],
              time: Number.isNaN(Date.parse(job.created_at)) ? '' : timeFormat.format(Date.parse(job.created_at)),
            });
            return (
              <li key={job.job_id} className={styles.recentItem} data-job-id={job.job_id} data-status={job.status}>
                <span className={styles.recentText} title={summary}>
                  {summary}
                </span>
                <span className={styles.meta}>{when}</span>
                <span className={styles.actions}>
                  <button
                    type="button"
                    className={styles.button({ tone: 'small' })}
                    aria-label={`${s.open}: ${summary}`}
                    onClick={() => onOpen(job)}
                  >
                    {s.open}
                  </button>
                  <button
                    type="button"
                    className={styles.button({ tone: 'small' })}
                    aria-label={`${s.again}: ${summary}`}
                    disabled={disabled}
                    onClick={() => onRunAgain(job)}
                  >
                    {s.again}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
