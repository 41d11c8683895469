// A container service's secrets (docs/publishing.md, "Secrets"): environment variables the
// runner gives the service's containers when they start. The value is sealed with the server's
// secret box (docs/security.md, "Secrets at rest"); the API answers names and times only.
export const statements = [
  `CREATE TABLE service_secrets (
    model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    name text NOT NULL,
    value_sealed text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (model_id, name)
  )`,
];
