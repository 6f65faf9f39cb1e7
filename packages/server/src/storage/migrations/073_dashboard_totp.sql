-- Optional second factor of dashboard users (RFC 6238 TOTP), one row per user who began
-- enrolment. The secret is sealed with the master key (secret-box); it counts only once
-- enabled_at is set (the user proved a code). last_step refuses a code of a time step already
-- used (replay). Recovery codes are stored only as their SHA-256, each usable once.
-- user_id names a dashboard_users row; there is no foreign key because that table is created by
-- a later-numbered migration (090), and rows here are only ever written for a signed-in user.
CREATE TABLE dashboard_totp (
  user_id        text PRIMARY KEY,
  secret_sealed  text NOT NULL,
  enabled_at     timestamptz,
  last_step      bigint
);

CREATE TABLE dashboard_recovery_codes (
  user_id    text NOT NULL,
  code_hash  text NOT NULL,
  used_at    timestamptz,
  PRIMARY KEY (user_id, code_hash)
);
