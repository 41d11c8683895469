// Container hosting (docs/publishing.md, "Container deployments"): the container contract's
// port and health path, a deployment's live state (message, running instances, last cold
// start), the registry a credential is for, which process manages each deployment (a lease,
// taken over when its holder stops renewing it), and per job its cold start and log lines.
export const statements = [
  `ALTER TABLE service_runtimes ADD COLUMN port integer`,
  `ALTER TABLE service_runtimes ADD COLUMN health_path text`,
  `ALTER TABLE service_runtimes ADD COLUMN concurrency integer`,
  `ALTER TABLE model_hosting ADD COLUMN message text`,
  `ALTER TABLE model_hosting ADD COLUMN instances integer NOT NULL DEFAULT 0`,
  `ALTER TABLE model_hosting ADD COLUMN last_cold_start_ms integer`,
  `ALTER TABLE model_hosting ADD COLUMN base_url text`,
  `ALTER TABLE registry_credentials ADD COLUMN registry text NOT NULL DEFAULT 'docker.io'`,
  `CREATE TABLE deployment_leases (
    deployment_id text PRIMARY KEY,
    holder text NOT NULL,
    expires_at timestamptz NOT NULL
  )`,
  `CREATE TABLE deployment_logs (
    id bigserial PRIMARY KEY,
    deployment_id text NOT NULL,
    job_id uuid,
    at timestamptz NOT NULL DEFAULT now(),
    stream text NOT NULL,
    instance text NOT NULL,
    line text NOT NULL
  )`,
  `CREATE INDEX deployment_logs_deployment_idx ON deployment_logs (deployment_id, id)`,
  `CREATE INDEX deployment_logs_job_idx ON deployment_logs (job_id, id) WHERE job_id IS NOT NULL`,
  `ALTER TABLE jobs ADD COLUMN cold_start_ms integer`,
];
