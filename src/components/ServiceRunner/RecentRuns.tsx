import type { Job } from '../../api/types';
import { formatString, type Strings } from '../../config/strings';
import type { Loadable } from './useRunnerData';
import * as styles from './ServiceRunner.css';

export interface RecentRunsProps {
  runs: Loadable<Job[]>;
  /** Labels a run whose input has neither text nor a named file. */
  serviceName: string;
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
/** Characters of a label: the first words of a prompt, a narrow screen's line (issue 50, item 6). */
export const SUMMARY_MAX = 60;

/** The first words of a text, cut at a word's end within SUMMARY_MAX characters, with an ellipsis. */
function firstWords(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SUMMARY_MAX) return flat;
  const cut = flat.slice(0, SUMMARY_MAX);
  const space = cut.lastIndexOf(' ');
  // One unbroken word (a URL, a hash) is cut where it reaches the limit.
  return `${(space > SUMMARY_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

/** The file name at the end of a file input's URL; a data: URL has none. */
function fileName(value: string): string | null {
  if (/^data:/i.test(value.trim())) return null;
  const path = value.trim().split(/[?#]/)[0]!;
  const last = path.split('/').pop() ?? '';
  try {
    return last ? firstWords(decodeURIComponent(last)) : null;
  } catch {
    return firstWords(last);
  }
}

/**
 * A short label for a past input (issue 50, item 6): the first words of its prompt (or the first
 * text that is not a file), else the name of its file, else `fallback` (the service's name).
 * Never the input's JSON: one unbroken string widened the Playground past a phone's screen.
 */
export function summariseInput(input: Record<string, unknown>, fallback: string): string {
  const texts = (values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v.trim() !== '' && !isFileValue(v));
  const text = texts(SUMMARY_KEYS.map((k) => input[k])) ?? texts(Object.values(input));
  if (text) return firstWords(text);
  const messages = input.messages;
  if (Array.isArray(messages)) {
    const last = messages[messages.length - 1] as { content?: unknown } | undefined;
    if (typeof last?.content === 'string' && last.content.trim()) return firstWords(last.content);
  }
  for (const value of Object.values(input)) {
    const name = typeof value === 'string' && isFileValue(value) ? fileName(value) : null;
    if (name) return name;
  }
  return fallback;
}

/** The caller's latest runs of the service: reopen one, or run its input again. */
export function RecentRuns({ runs, serviceName, strings, headingLevel, disabled, onOpen, onRunAgain }: RecentRunsProps) {
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
        <ul className={styles.recentList}>
          {runs.value.map((job) => {
            const summary = summariseInput(job.input, serviceName);
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
