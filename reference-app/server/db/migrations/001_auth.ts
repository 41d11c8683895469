// Auth schema: users and their identities, sessions with rotating refresh tokens, MFA factors,
// one-time email tokens, PKCE flow state, signing keys, settings and the dev mailbox.
export const statements = [
  `CREATE TABLE users (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email text NOT NULL,
    encrypted_password text,
    email_confirmed_at timestamptz,
    confirmation_sent_at timestamptz,
    recovery_sent_at timestamptz,
    email_change text,
    email_change_sent_at timestamptz,
    last_sign_in_at timestamptz,
    raw_app_meta_data jsonb NOT NULL DEFAULT '{}'::jsonb,
    raw_user_meta_data jsonb NOT NULL DEFAULT '{}'::jsonb,
    banned_until timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX users_email_key ON users (email)`,
  `CREATE TABLE identities (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider text NOT NULL,
    provider_id text NOT NULL,
    identity_data jsonb NOT NULL DEFAULT '{}'::jsonb,
    last_sign_in_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, provider_id)
  )`,
  `CREATE INDEX identities_user_id_idx ON identities (user_id)`,
  `CREATE TABLE sessions (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    aal text NOT NULL DEFAULT 'aal1',
    amr jsonb NOT NULL DEFAULT '[]'::jsonb,
    factor_id uuid,
    user_agent text,
    ip text,
    refreshed_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX sessions_user_id_idx ON sessions (user_id)`,
  `CREATE TABLE refresh_tokens (
    id bigserial PRIMARY KEY,
    token_hash text NOT NULL UNIQUE,
    token_enc text NOT NULL,
    session_id uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    parent_id bigint,
    revoked boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX refresh_tokens_session_id_idx ON refresh_tokens (session_id)`,
  `CREATE TABLE mfa_factors (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    friendly_name text,
    factor_type text NOT NULL,
    status text NOT NULL,
    secret_enc text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX mfa_factors_user_id_idx ON mfa_factors (user_id)`,
  `CREATE TABLE mfa_challenges (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    factor_id uuid NOT NULL REFERENCES mfa_factors(id) ON DELETE CASCADE,
    ip text NOT NULL,
    verified_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE flow_states (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
    auth_code_hash text UNIQUE,
    code_challenge text NOT NULL,
    code_challenge_method text NOT NULL,
    authentication_method text NOT NULL,
    provider text,
    redirect_to text,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE one_time_tokens (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_type text NOT NULL,
    token_hash text NOT NULL UNIQUE,
    otp_hash text NOT NULL,
    relates_to text NOT NULL,
    flow_state_id uuid REFERENCES flow_states(id) ON DELETE SET NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX one_time_tokens_user_idx ON one_time_tokens (user_id, token_type)`,
  `CREATE TABLE oauth_states (
    id text PRIMARY KEY,
    provider text NOT NULL,
    redirect_to text NOT NULL,
    flow_state_id uuid REFERENCES flow_states(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE auth_keys (
    kid text PRIMARY KEY,
    alg text NOT NULL,
    public_jwk jsonb NOT NULL,
    private_jwk_enc text NOT NULL,
    retired_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE settings (
    key text PRIMARY KEY,
    value text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE mail_messages (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    to_address text NOT NULL,
    subject text NOT NULL,
    text_body text NOT NULL,
    html_body text NOT NULL,
    links jsonb NOT NULL DEFAULT '[]'::jsonb,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
  )`,
  `CREATE INDEX mail_messages_to_idx ON mail_messages (to_address, created_at DESC)`,
];
