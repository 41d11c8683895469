// Auth hardening (docs/security.md): shared rate-limit counters, wrong-guess counts on e-mail
// codes and MFA challenges, and the last TOTP time step each factor accepted (no replays).
export const statements = [
  // rate-limiter-flexible's table: its INSERT names no columns, so the order is part of the contract.
  `CREATE TABLE rate_limits (
    key text PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
  )`,
  `CREATE INDEX rate_limits_expire_idx ON rate_limits (expire)`,
  `ALTER TABLE one_time_tokens ADD COLUMN failed_attempts integer NOT NULL DEFAULT 0`,
  `ALTER TABLE mfa_challenges ADD COLUMN failed_attempts integer NOT NULL DEFAULT 0`,
  `ALTER TABLE mfa_factors ADD COLUMN last_totp_step bigint`,
];
