-- The merchant back office: its users (one merchant each, with a role), the invitations that
-- create them, their sign-in sessions and the audit log of everything they do. Secrets (session
-- ids, invitation tokens) are stored only as their SHA-256; passwords only as scrypt hashes.
CREATE TABLE dashboard_users (
  id                  text PRIMARY KEY,
  merchant_id         text NOT NULL REFERENCES merchants (id),
  -- Lower-cased on the way in, so one address is one user.
  email               text NOT NULL UNIQUE CHECK (email = lower(email)),
  role                text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  password_hash       text NOT NULL,
  -- Sign-in throttling: failures since the last success, and when the next attempt is allowed.
  failed_sign_ins     integer NOT NULL DEFAULT 0,
  sign_in_blocked_until timestamptz,
  created_at          timestamptz NOT NULL
);
CREATE INDEX dashboard_users_by_merchant ON dashboard_users (merchant_id);

CREATE TABLE dashboard_invitations (
  token_hash   text PRIMARY KEY,
  merchant_id  text NOT NULL REFERENCES merchants (id),
  email        text NOT NULL CHECK (email = lower(email)),
  role         text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  -- Null when the operator invited (the first owner); else the inviting user.
  invited_by   text REFERENCES dashboard_users (id),
  expires_at   timestamptz NOT NULL,
  accepted_at  timestamptz,
  created_at   timestamptz NOT NULL
);

CREATE TABLE dashboard_sessions (
  id_hash      text PRIMARY KEY,
  user_id      text NOT NULL REFERENCES dashboard_users (id),
  -- The CSRF token of this session (synchroniser token): sent back in X-CSRF-Token on changes.
  csrf_token   text NOT NULL,
  expires_at   timestamptz NOT NULL,
  created_at   timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_by_user ON dashboard_sessions (user_id);

CREATE TABLE dashboard_audit_log (
  id           text PRIMARY KEY,
  merchant_id  text NOT NULL REFERENCES merchants (id),
  -- Null for the operator's actions (the first owner's invitation).
  user_id      text REFERENCES dashboard_users (id),
  action       text NOT NULL,
  -- What the action was about (a payment intent id, an invited address, ...).
  target       text,
  livemode     boolean,
  created_at   timestamptz NOT NULL
);
CREATE INDEX dashboard_audit_log_by_merchant ON dashboard_audit_log (merchant_id, created_at DESC, id DESC);
