-- Deprecation notices (the specification: "Deprecation is announced by e-mail to the affected
-- tenants before anything is withdrawn, using the version data sent in telemetry").
CREATE TABLE deprecations (
  id           text PRIMARY KEY,
  -- {"clients": [{"name", "below"}]} or {"contract": "v1"}, as the operator sent it.
  affected     jsonb NOT NULL,
  withdraw_on  date NOT NULL,
  body_text    text NOT NULL,
  created_at   timestamptz NOT NULL
);
CREATE INDEX deprecations_newest ON deprecations (created_at DESC, id DESC);

-- One row per (announcement, dashboard user) told, written in the transaction that queues the
-- user's e-mail in mail_outbox (dedupe key deprecation:<id>:<user id>): the primary key is what
-- makes a notice go out at most once per announcement, the shared transaction at least once.
CREATE TABLE deprecation_recipients (
  deprecation_id  text NOT NULL REFERENCES deprecations (id),
  user_id         text NOT NULL REFERENCES dashboard_users (id),
  merchant_id     text NOT NULL REFERENCES merchants (id),
  email           text NOT NULL,
  language        text NOT NULL CHECK (language IN ('en', 'es')),
  -- The merchant's clients that made it affected, as name/version.
  clients         text[] NOT NULL,
  notified_at     timestamptz NOT NULL,
  PRIMARY KEY (deprecation_id, user_id)
);
CREATE INDEX deprecation_recipients_by_merchant ON deprecation_recipients (merchant_id);

-- The language a dashboard user works in (the language of the pages they last opened), so that
-- mail to them is in it; null until they open a page (mail then goes out in English).
ALTER TABLE dashboard_users ADD COLUMN IF NOT EXISTS language text CHECK (language IN ('en', 'es'));

