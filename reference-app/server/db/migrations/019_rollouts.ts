// A container deployment's latest rollout (docs/publishing.md, "Rollouts"): the image last saved,
// whether it serves (pending, in_progress, succeeded, failed) and why not. The deployment's
// status cannot say it: a refused update leaves the previous version running. Rows made before
// have none until their next save or report.
export const statements = [
  `ALTER TABLE model_hosting ADD COLUMN rollout_image text`,
  `ALTER TABLE model_hosting ADD COLUMN rollout_status text`,
  `ALTER TABLE model_hosting ADD COLUMN rollout_message text`,
];
