import type { Db } from '../db/types';
import { log } from '../log';
import type { LogLine } from './logRing';
import { insertLogLines, trimDeploymentLogs, type LogRow } from './queries';

// The runner's log lines in the database (docs/publishing.md, "Logs"), so any server process can
// answer them: model_hosting_information reads a deployment's tail, GET /v1/jobs/{id} and the
// job's SSE stream read the lines written while the job ran. Lines are written in batches
// (one insert per LOG_FLUSH_MS), and each deployment's rows are bounded: after every
// LOG_TRIM_EVERY lines, rows older than its newest DEPLOYMENT_LOG_ROWS are deleted (its own
// lines and its jobs' copies alike, so a job's lines last as long as they are among them).

/** Rows kept per deployment in deployment_logs. */
export const DEPLOYMENT_LOG_ROWS = 2000;
/** Lines written between two trims of one deployment. */
export const LOG_TRIM_EVERY = 200;
/** How long a line waits to be written with others. */
export const LOG_FLUSH_MS = 100;
/** Lines kept per job (its first ones: a chatty job cannot push out the deployment's tail). */
export const JOB_LOG_LINES = 200;

export class DeploymentLogWriter {
  private pending: LogRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly sinceTrim = new Map<string, number>();
  private readonly perJob = new Map<string, number>();

  constructor(
    private readonly db: Db,
    /** The job events channel: a job's stream wakes when its lines are written. */
    private readonly notifyChannel: string | null,
    /**
     * Queues the `logs` webhook deliveries of the jobs whose lines were just written (one
     * waiting at a time per job). The deliveries are the queue's to write (jobs/queries.ts,
     * `insertLogWebhooks`), so platform.ts passes it (docs/architecture.md, "Server layers").
     */
    private readonly queueLogWebhooks: (jobIds: readonly string[]) => Promise<void>,
  ) {}

  /** A line of the deployment's ring (jobId null), or a copy of it for the job it was written during. */
  add(deploymentId: string, line: LogLine, jobId: string | null = null): void {
    if (jobId !== null) {
      const count = this.perJob.get(jobId) ?? 0;
      if (count >= JOB_LOG_LINES) return;
      this.perJob.set(jobId, count + 1);
    }
    this.pending.push({
      deployment_id: deploymentId,
      job_id: jobId,
      at: new Date(line.at),
      stream: line.stream,
      instance: line.instance,
      line: line.text,
    });
    this.timer ??= setTimeout(() => void this.flush(), LOG_FLUSH_MS);
  }

  /** The job's answer came (and again when its late-line window closes): its lines so far are written. */
  async jobDone(jobId: string): Promise<void> {
    await this.flush();
    this.forget(jobId);
  }

  /** The per-job line count is kept until the late window has passed, then dropped. */
  private forget(jobId: string): void {
    setTimeout(() => this.perJob.delete(jobId), 2 * LOG_FLUSH_MS + 1000).unref();
  }

  /** Writes what is pending; resolves once every line added so far is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.pending.splice(0);
    this.writing = this.writing.then(() => this.write(rows));
    return this.writing;
  }

  private async write(rows: LogRow[]): Promise<void> {
    if (rows.length === 0) return;
    try {
      const jobIds = await insertLogLines(this.db, rows, this.notifyChannel);
      if (jobIds.length > 0) await this.queueLogWebhooks(jobIds);
      for (const row of rows) {
        const count = (this.sinceTrim.get(row.deployment_id) ?? 0) + 1;
        this.sinceTrim.set(row.deployment_id, count);
      }
      for (const [deploymentId, count] of this.sinceTrim) {
        if (count < LOG_TRIM_EVERY) continue;
        this.sinceTrim.set(deploymentId, 0);
        await trimDeploymentLogs(this.db, deploymentId, DEPLOYMENT_LOG_ROWS);
      }
    } catch (error) {
      // Logs are best effort: a failed write must not fail the job or the deployment.
      log.warn({ err: error, lines: rows.length }, 'storing container log lines failed');
    }
  }
}
