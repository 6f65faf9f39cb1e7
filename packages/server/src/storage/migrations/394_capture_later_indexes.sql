-- paygate:no-transaction
-- The authorisations to capture (migration 393), by the lapse job: REQUIRES_CAPTURE intents by
-- capture_before. Built CONCURRENTLY (payment_intents takes writes all along an upgrade), one
-- statement per migration: several would run in one implicit transaction, which CONCURRENTLY refuses.
CREATE INDEX CONCURRENTLY IF NOT EXISTS payment_intents_authorised ON payment_intents (capture_before)
  WHERE status = 'REQUIRES_CAPTURE';
