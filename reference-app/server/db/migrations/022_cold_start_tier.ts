// Where a container job's cold start came from, and the snapshot a deployment restores from
// (docs/deploy.md, "Snapshot cold starts"): `cold_start_tier` beside `cold_start_ms` on jobs
// (`snapshot`, `paused`, `created`, `image`, or `warm` on a running instance), and the size and
// time of the deployment's memory snapshot on model_hosting, which the runner stores with its
// reports and the hosting information shows.
export const statements = [
  `ALTER TABLE jobs ADD COLUMN cold_start_tier text
    CHECK (cold_start_tier IN ('snapshot', 'paused', 'created', 'image', 'warm'))`,
  `ALTER TABLE model_hosting ADD COLUMN snapshot_bytes bigint`,
  `ALTER TABLE model_hosting ADD COLUMN snapshot_taken_at timestamptz`,
];
