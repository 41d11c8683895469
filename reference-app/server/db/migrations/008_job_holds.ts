// Jobs, prepaid and fair (docs/jobs.md: holds, fairness, result sizes):
// - `hold_credits`: the worst case of a run, reserved from the owner's balance while the job is
//   QUEUED or PROCESSING (available = balance − open holds) and settled when it ends;
// - `publisher_id`: the service's owner when the job was accepted, for the per-publisher cap;
// - `result_bytes`: the stored result's size, so lists can leave large results out cheaply;
// - `job_users`: per user, the jobs queued and running now (kept up to date by the statements
//   that change a job's status, never recounted in the claim) and when the user was last served
//   (round-robin across users). The claim visits only users with queued jobs.
export const statements = [
  `ALTER TABLE jobs ADD COLUMN hold_credits numeric(18, 4) NOT NULL DEFAULT 0`,
  `ALTER TABLE jobs ADD COLUMN publisher_id uuid`,
  `ALTER TABLE jobs ADD COLUMN result_bytes integer`,
  `CREATE TABLE job_users (
    user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    queued integer NOT NULL DEFAULT 0,
    running integer NOT NULL DEFAULT 0,
    served_at timestamptz
  )`,
  // Jobs queued or running when this migration runs are counted once here.
  `INSERT INTO job_users (user_id, queued, running)
    SELECT user_id, count(*) FILTER (WHERE status = 'QUEUED'), count(*) FILTER (WHERE status = 'PROCESSING')
    FROM jobs WHERE status IN ('QUEUED', 'PROCESSING') GROUP BY user_id`,
  `CREATE INDEX job_users_waiting_idx ON job_users (user_id) INCLUDE (running, served_at) WHERE queued > 0`,
  // The claimable set, in the order the claim ranks it (per user, oldest first), with what the
  // caps read: the claim never visits the table rows of jobs it does not take.
  `DROP INDEX jobs_queued_idx`,
  `CREATE INDEX jobs_claimable_idx ON jobs (user_id, created_at, id) INCLUDE (runtime, service_id, publisher_id) WHERE status = 'QUEUED'`,
  `CREATE INDEX jobs_queue_order_idx ON jobs (created_at, id) WHERE status = 'QUEUED'`,
  `CREATE INDEX jobs_open_holds_idx ON jobs (user_id) INCLUDE (hold_credits) WHERE status IN ('QUEUED', 'PROCESSING')`,
];
