// The job API's statuses and limits (docs/jobs.md). @limelight/client re-exports them as its own
// (`@limelight/client/types`), the widgets and the server import them from here, and the Python
// package reads them from its generated limelight/_rules.py.

/** Job statuses in lifecycle order; the last four are final. */
export const JOB_STATUSES = ['QUEUED', 'PROCESSING', 'FINISHED', 'FAILED', 'TIMEOUT', 'CANCELLED'] as const;
/** A job's status, one of `JOB_STATUSES`. */
export type JobStatus = (typeof JOB_STATUSES)[number];
/** Job statuses after which a job never changes again. */
export const FINAL_JOB_STATUSES: readonly JobStatus[] = ['FINISHED', 'FAILED', 'TIMEOUT', 'CANCELLED'];
/** The longest `Prefer: wait` the server honours, in seconds. */
export const MAX_PREFER_WAIT_S = 60;
export const isFinalStatus = (status: JobStatus) => FINAL_JOB_STATUSES.includes(status);
