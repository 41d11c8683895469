// Idempotency-Key for the account POSTs that create something (docs/jobs.md, "Idempotency-Key"):
// the first request with a key claims the row (answer NULL while it runs), stores its answer on
// success, and a later request with the same key and body replays that answer. Jobs keep their
// key on the job row itself (migration 005), so the key and the hold are written in one statement.
export const statements = [
  `CREATE TABLE idempotency_keys (
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    key text NOT NULL,
    request_hash text NOT NULL,
    response_status integer,
    response_body text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, key)
  )`,
  `CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`,
];
