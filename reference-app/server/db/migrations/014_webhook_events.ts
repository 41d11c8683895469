// Webhook event filters (docs/jobs.md, "Webhooks"): a job may ask for its webhook when it starts,
// when its output changes, when its container writes log lines and when it ends
// (`webhook_events_filter`, as Replicate's). NULL keeps the old behaviour: only when it ends.
// Each delivery says which event it is for.
export const statements = [
  `ALTER TABLE jobs ADD COLUMN webhook_events text[]`,
  `ALTER TABLE webhook_deliveries ADD COLUMN event text NOT NULL DEFAULT 'completed'
    CHECK (event IN ('start', 'output', 'logs', 'completed'))`,
];
