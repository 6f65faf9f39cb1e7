-- paygate:no-transaction
-- The console's audit log filtered by operator, newest first, in keyset pages both ways.
CREATE INDEX CONCURRENTLY IF NOT EXISTS operator_audit_log_by_operator
  ON operator_audit_log (operator_id, created_at DESC, id DESC);
