-- No payment stays PROCESSING forever (docs/decisions/money-safety.md): a charge whose outcome is
-- still unknown at the processing deadline is TIMED_OUT (its intent fails), and reconciliation
-- keeps watching it for a while in case the gateway reports a capture after all.
ALTER TABLE charge_attempts DROP CONSTRAINT charge_attempts_status_check;
ALTER TABLE charge_attempts ADD CONSTRAINT charge_attempts_status_check CHECK (status IN
  ('CHARGING', 'DELAYED', 'REQUIRES_ACTION', 'PROCESSING',
   'SUCCEEDED', 'FAILED', 'UNAVAILABLE', 'ABANDONED', 'TIMED_OUT'));
