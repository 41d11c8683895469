import type { Db } from '../db/types';
import { selectJobLogLines } from './queries';

// The lines a job's container wrote while it ran (docs/jobs.md, "Logs"): stored by the runner
// (hosting/deploymentLogs.ts), answered in GET /v1/jobs/{id} and as `log` events on the job's
// stream. Jobs of other runtimes have none.

export interface JobLogLine {
  at: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

/** Lines after row `afterId` (a cursor for the stream), with the cursor to continue from. */
export type JobLogSource = (jobId: string, afterId: string) => Promise<{ lines: JobLogLine[]; cursor: string }>;

export function jobLogSource(db: Db): JobLogSource {
  return async (jobId, afterId) => {
    const rows = await selectJobLogLines(db, jobId, afterId);
    return {
      lines: rows.map((r) => ({ at: new Date(r.at).toISOString(), stream: r.stream === 'stderr' ? 'stderr' : 'stdout', text: r.line })),
      cursor: rows.at(-1)?.id ?? afterId,
    };
  };
}
