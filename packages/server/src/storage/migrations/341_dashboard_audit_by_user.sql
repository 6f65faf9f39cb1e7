-- paygate:no-transaction
-- The audit log page filtered by user (one user's entries of a merchant, newest first).
CREATE INDEX CONCURRENTLY IF NOT EXISTS dashboard_audit_log_by_user
  ON dashboard_audit_log (merchant_id, user_id, created_at DESC, id DESC);
