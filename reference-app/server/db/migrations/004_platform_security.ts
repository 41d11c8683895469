// Platform API hardening (issue 11): one open subscription checkout per user and recorded
// refund cases for payments of superseded checkouts; support attachments in the media store
// instead of the database; a mail outbox so a saved ticket's mail is retried, never lost; and
// double opt-in for the newsletter.

export const statements = [
  // Keep only the newest open subscription checkout of each user before the index forbids more.
  `UPDATE checkout_sessions AS c SET status = 'expired'
     WHERE c.purpose = 'subscription' AND c.status = 'open' AND EXISTS (
       SELECT 1 FROM checkout_sessions AS n
        WHERE n.user_id = c.user_id AND n.purpose = 'subscription' AND n.status = 'open'
          AND (n.created_at, n.id) > (c.created_at, c.id))`,
  `CREATE UNIQUE INDEX checkout_sessions_one_open_subscription ON checkout_sessions (user_id)
     WHERE purpose = 'subscription' AND status = 'open'`,
  `ALTER TABLE checkout_sessions ADD COLUMN superseded_by text`,
  `CREATE TABLE payment_refund_cases (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    checkout_id text NOT NULL UNIQUE REFERENCES checkout_sessions(id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider text NOT NULL,
    provider_ref text,
    subscription_ref text,
    amount_minor integer NOT NULL,
    currency text NOT NULL,
    reason text NOT NULL,
    status text NOT NULL DEFAULT 'open',
    created_at timestamptz NOT NULL DEFAULT now(),
    resolved_at timestamptz
  )`,
  `ALTER TABLE support_attachments ADD COLUMN media_key text`,
  `ALTER TABLE support_attachments ALTER COLUMN data DROP NOT NULL`,
  `ALTER TABLE support_tickets ADD COLUMN request_hash text`,
  `CREATE INDEX support_tickets_request_idx ON support_tickets (user_id, request_hash)`,
  `CREATE TABLE mail_outbox (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    to_address text NOT NULL,
    subject text NOT NULL,
    text_body text NOT NULL,
    html_body text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error text,
    sent_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL`,
  // Subscriptions made before double opt-in were confirmed by the welcome mail's rules of the time.
  `ALTER TABLE newsletter_subscriptions ADD COLUMN confirmed_at timestamptz`,
  `UPDATE newsletter_subscriptions SET confirmed_at = created_at`,
];
