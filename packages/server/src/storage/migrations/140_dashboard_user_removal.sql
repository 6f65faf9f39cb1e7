-- Owners remove users from the team. A removed user's row stays (the audit log names it), marked
-- removed; the address may be invited again, so it is unique among the users not removed only.
ALTER TABLE dashboard_users ADD COLUMN removed_at timestamptz;
ALTER TABLE dashboard_users DROP CONSTRAINT dashboard_users_email_key;
CREATE UNIQUE INDEX dashboard_users_live_email ON dashboard_users (email) WHERE removed_at IS NULL;
