-- The operator's console: operator users (separate from merchants' dashboard users), their
-- sessions and the audit log of what they do. Same rules as the dashboard's: passwords as scrypt
-- hashes, session ids as SHA-256 only, a CSRF token per session. A second factor uses the
-- dashboard's TOTP tables (keyed by user id; operator ids are `opu_…`, never a dashboard user's).
CREATE TABLE operator_users (
  id             text PRIMARY KEY,
  email          text NOT NULL UNIQUE CHECK (email = lower(email)),
  password_hash  text NOT NULL,
  created_at     timestamptz NOT NULL,
  disabled_at    timestamptz
);

CREATE TABLE operator_sessions (
  id_hash      text PRIMARY KEY,
  user_id      text NOT NULL REFERENCES operator_users (id),
  csrf_token   text NOT NULL,
  expires_at   timestamptz NOT NULL,
  created_at   timestamptz NOT NULL
);
CREATE INDEX operator_sessions_by_user ON operator_sessions (user_id);

CREATE TABLE operator_audit_log (
  id           text PRIMARY KEY,
  operator_id  text NOT NULL REFERENCES operator_users (id),
  action       text NOT NULL,
  -- What the action was about (a merchant id, an announced deprecation, ...).
  target       text,
  created_at   timestamptz NOT NULL
);
CREATE INDEX operator_audit_log_newest ON operator_audit_log (created_at DESC, id DESC);
