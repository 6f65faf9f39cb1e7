-- The throttle on guessing dashboard secrets (issue 29): failures counted per subject, a SHA-256
-- of an e-mail address (sign-ins and second-factor codes, whether or not a user has the address)
-- or of a client address (invitation tokens). Each attempt locks its row and counts before its
-- secret is checked, so concurrent guesses in any process each count.
-- dashboard_users.failed_sign_ins and sign_in_blocked_until are no longer read or written; they
-- stay so that a process of the previous version keeps working during a rolling upgrade.
CREATE TABLE dashboard_attempt_throttle (
  subject        text PRIMARY KEY,
  failures       integer NOT NULL CHECK (failures >= 0),
  blocked_until  timestamptz,
  updated_at     timestamptz NOT NULL
);
CREATE INDEX dashboard_attempt_throttle_by_age ON dashboard_attempt_throttle (updated_at);
