// Platform schema: profiles, the model catalogue, pricing, plans, API keys and usage, registry
// credentials, the credit ledger, checkouts and subscriptions, newsletter and support.
export const statements = [
  `CREATE TABLE profiles (
    user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    full_name text,
    street text,
    number text,
    address_extra text,
    zip_code text,
    city text,
    country_code text,
    mobile text,
    date_of_birth date,
    profile_picture_url text,
    terms_accepted boolean NOT NULL DEFAULT false,
    terms_accepted_at timestamptz,
    dt_created timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE model_categories (
    id text PRIMARY KEY,
    title text NOT NULL,
    input_domain jsonb NOT NULL,
    output_domain jsonb NOT NULL,
    sort_idx integer NOT NULL DEFAULT 0
  )`,
  `CREATE TABLE models (
    id text PRIMARY KEY,
    display_name text,
    model_desc text,
    display_img_url text,
    used_models jsonb,
    model_category jsonb,
    created_by uuid REFERENCES users(id) ON DELETE SET NULL,
    owner_name text,
    provider text NOT NULL,
    is_public boolean NOT NULL DEFAULT true,
    n_usages bigint NOT NULL DEFAULT 0,
    sort_idx_featured integer,
    endpoints jsonb NOT NULL DEFAULT '[]'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX models_created_by_idx ON models (created_by)`,
  `CREATE TABLE model_hosting (
    hosted_model_id text PRIMARY KEY,
    model_id text NOT NULL UNIQUE REFERENCES models(id) ON DELETE CASCADE,
    status text NOT NULL,
    gpu text NOT NULL,
    min_instances integer NOT NULL,
    max_instances integer NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE pricing_servers (
    id text PRIMARY KEY,
    display_name text NOT NULL,
    provider text NOT NULL,
    physical_gpus integer NOT NULL,
    gpu_vram_gb integer NOT NULL,
    customer_price_per_s_usd numeric(12, 8) NOT NULL
  )`,
  `CREATE TABLE model_pricing (
    model_id text PRIMARY KEY REFERENCES models(id) ON DELETE CASCADE,
    unit text NOT NULL,
    price_usd numeric(12, 6) NOT NULL
  )`,
  `CREATE TABLE plans (
    key text PRIMARY KEY,
    title text NOT NULL,
    sub text NOT NULL,
    currency text NOT NULL,
    price_major integer NOT NULL,
    price_cents integer NOT NULL,
    strike_through text,
    button_text text NOT NULL,
    badge text,
    active boolean NOT NULL,
    features jsonb NOT NULL,
    sort_idx integer NOT NULL
  )`,
  `CREATE TABLE api_keys (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    key_hash text NOT NULL UNIQUE,
    display_value text NOT NULL,
    expiration_date timestamptz NOT NULL,
    last_used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX api_keys_user_id_idx ON api_keys (user_id)`,
  `CREATE TABLE api_usage (
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    month text NOT NULL,
    calls bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, month)
  )`,
  `CREATE TABLE registry_credentials (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    platform text NOT NULL,
    credential_alias text NOT NULL,
    foreign_username text NOT NULL,
    pat_enc text NOT NULL,
    pat_last4 text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, platform, credential_alias)
  )`,
  `CREATE TABLE credit_ledger (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    amount numeric(18, 4) NOT NULL,
    kind text NOT NULL,
    description text NOT NULL,
    reference text UNIQUE,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
  )`,
  `CREATE INDEX credit_ledger_user_idx ON credit_ledger (user_id, created_at DESC)`,
  `CREATE UNIQUE INDEX credit_ledger_one_bonus ON credit_ledger (user_id) WHERE kind = 'sign_up_bonus'`,
  `CREATE TABLE checkout_sessions (
    id text PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider text NOT NULL,
    purpose text NOT NULL,
    quantity integer NOT NULL,
    amount_minor integer NOT NULL,
    currency text NOT NULL,
    plan_type text,
    status text NOT NULL,
    url text NOT NULL,
    provider_ref text,
    success_url text,
    cancel_url text,
    completed_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX checkout_sessions_user_idx ON checkout_sessions (user_id)`,
  `CREATE TABLE subscriptions (
    user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    plan_type text NOT NULL,
    status text NOT NULL,
    cancel_at_period_end boolean NOT NULL DEFAULT false,
    current_period_end timestamptz,
    provider text NOT NULL,
    provider_ref text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE newsletter_options (
    id integer PRIMARY KEY,
    display_value text NOT NULL,
    description text NOT NULL
  )`,
  `CREATE TABLE newsletter_subscriptions (
    email text NOT NULL,
    option_id integer NOT NULL REFERENCES newsletter_options(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (email, option_id)
  )`,
  `CREATE TABLE support_tickets (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    topic text NOT NULL,
    subject text NOT NULL,
    message text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE support_attachments (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    ticket_id uuid NOT NULL REFERENCES support_tickets(id) ON DELETE CASCADE,
    filename text NOT NULL,
    content_type text NOT NULL,
    size_bytes integer NOT NULL,
    data bytea NOT NULL
  )`,
];
