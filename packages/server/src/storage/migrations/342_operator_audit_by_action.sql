-- paygate:no-transaction
-- The console's audit log filtered by action, newest first, in keyset pages both ways.
CREATE INDEX CONCURRENTLY IF NOT EXISTS operator_audit_log_by_action
  ON operator_audit_log (action, created_at DESC, id DESC);
