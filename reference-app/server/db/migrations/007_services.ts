// Publishing (docs/publishing.md): services their owners create, pause and delete, and how each
// runs: at the owner's own URL (http) or as a container deployment waiting for a GPU runner.
// A deleted service keeps its row (soft delete), so job history and ledger rows stay readable.
export const statements = [
  `ALTER TABLE models ADD COLUMN status text NOT NULL DEFAULT 'active'`,
  `ALTER TABLE models ADD COLUMN deleted_at timestamptz`,
  `CREATE TABLE service_runtimes (
    model_id text PRIMARY KEY REFERENCES models(id) ON DELETE CASCADE,
    type text NOT NULL,
    base_url text,
    headers_sealed text,
    header_names jsonb NOT NULL DEFAULT '[]'::jsonb,
    image text,
    registry_credential_id uuid REFERENCES registry_credentials(id) ON DELETE SET NULL,
    gpu text,
    min_instances integer,
    max_instances integer,
    idle_timeout_s integer,
    last_health jsonb,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
];
