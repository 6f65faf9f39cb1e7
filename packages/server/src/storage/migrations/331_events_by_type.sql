-- paygate:no-transaction
-- The events list filtered by type (a rare one, such as dispute.closed, among millions of payment
-- events): the page reads its own rows of that type, not every event newer than them.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_merchant_type
  ON events (merchant_id, livemode, type, created_at DESC, id DESC);
