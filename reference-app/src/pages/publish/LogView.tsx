import type { DeploymentLogLine } from '@limelight/widgets/api';
import * as styles from './publish.css';

// A deployment's last log lines: a labelled region (a landmark screen readers list), monospace,
// focusable so the keyboard scrolls it, newest line last. Lines are text, never HTML.

/** `2026-11-24T09:01:02.345Z` → `09:01:02`: the day is the page's, the zone the viewer's. */
function clock(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString('en-GB', { hour12: false });
}

export function LogView({ label, lines, empty }: { label: string; lines: readonly DeploymentLogLine[]; empty: string }) {
  return (
    <section aria-label={label} data-testid="deployment-logs">
      {lines.length === 0 ? (
        <p className={styles.hint}>{empty}</p>
      ) : (
        // role="log" names the focusable box; aria-live off: a poll adding lines every few seconds
        // would otherwise interrupt a screen reader.
        <pre className={styles.logView} tabIndex={0} role="log" aria-live="off" aria-label={label}>
          {lines.map((line, i) => (
            <span key={i} data-stream={line.stream}>
              {`${clock(line.at)} ${line.stream === 'stderr' ? 'ERR' : line.stream === 'stdout' ? 'OUT' : line.stream.toUpperCase()}${line.instance ? ` ${line.instance.slice(0, 12)}` : ''}  ${line.text}\n`}
            </span>
          ))}
        </pre>
      )}
    </section>
  );
}
