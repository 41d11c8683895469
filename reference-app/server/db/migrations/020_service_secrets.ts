// A container service's secrets (docs/publishing.md, "Secrets"): environment variables the
// runner gives the service's containers when they start. The value is sealed with the server's
// secret box (docs/security.md, "Secrets at rest"); the API answers names and times only.
// service_runtimes.secrets_deployed: a fingerprint (names and times, no value) of the secrets as
// the service's last deploy saw them, part of the runner's lease revision, so the runner that
// holds the deployment applies a deploy whose secrets changed, and a change alone rolls nothing.
export const statements = [
  `CREATE TABLE service_secrets (
    model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    name text NOT NULL,
    value_sealed text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (model_id, name)
  )`,
  `ALTER TABLE service_runtimes ADD COLUMN secrets_deployed text`,
];
