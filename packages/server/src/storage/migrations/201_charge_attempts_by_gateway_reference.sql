-- paygate:no-transaction
-- A Stripe dispute names the disputed payment by the gateway's own reference only (the
-- PaymentIntent's id), not by the key Paygate sent: the dispute notification finds the charge by
-- it (storage/repositories/disputes.ts, findDisputedCharge).
CREATE INDEX CONCURRENTLY IF NOT EXISTS charge_attempts_by_gateway_reference
  ON charge_attempts (gateway_id, gateway_reference) WHERE gateway_reference IS NOT NULL;
