-- paygate:no-transaction
-- A merchant's authorisations to capture (migration 393), soonest deadline first: the "to capture"
-- list of the dashboard and the API. Built CONCURRENTLY, as 394.
CREATE INDEX CONCURRENTLY IF NOT EXISTS payment_intents_to_capture
  ON payment_intents (merchant_id, livemode, capture_before, id)
  WHERE status = 'REQUIRES_CAPTURE';
