-- paygate:no-transaction
-- A customer's payments, newest first (migration 399): an index scan however many intents the
-- merchant has. Built CONCURRENTLY, since payment_intents takes writes all along an upgrade.
CREATE INDEX CONCURRENTLY IF NOT EXISTS payment_intents_of_customer
  ON payment_intents (customer_id, created_at DESC, id DESC) WHERE customer_id IS NOT NULL;
