-- A secret a dashboard form made, to show once on the page its post redirects to (post,
-- redirect, get): a new API key, the recovery codes of a second factor. Never in a URL: held here,
-- sealed for the session that made it, taken (deleted) by the first page that shows it, and gone
-- with the session. One of each kind per session: a second one replaces the first.
CREATE TABLE IF NOT EXISTS dashboard_flashes (
  session_hash text NOT NULL REFERENCES dashboard_sessions (id_hash) ON DELETE CASCADE,
  kind         text NOT NULL CHECK (kind IN ('api_key', 'recovery_codes')),
  sealed       text NOT NULL,
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (session_hash, kind)
);
