// Job webhook signing secrets (docs/jobs.md, webhooks): one random secret per user, sealed, and
// after a rotation the previous one until its overlap ends.
export const statements = [
  `CREATE TABLE webhook_secrets (
    user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    secret_sealed text NOT NULL,
    previous_sealed text,
    previous_valid_until timestamptz,
    rotated_at timestamptz NOT NULL DEFAULT now()
  )`,
];
