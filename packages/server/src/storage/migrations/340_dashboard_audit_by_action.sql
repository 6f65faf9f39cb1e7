-- paygate:no-transaction
-- The audit log page filtered by action reads one action's entries of a merchant newest first,
-- in keyset pages both ways (app/dashboard/audit.ts): without this index a rare action among a
-- merchant's many sign-ins would be found by walking every entry of the merchant.
CREATE INDEX CONCURRENTLY IF NOT EXISTS dashboard_audit_log_by_action
  ON dashboard_audit_log (merchant_id, action, created_at DESC, id DESC);
