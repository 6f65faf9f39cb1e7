-- paygate:no-transaction
-- The back office's events list filtered by type (storage/repositories/event-log.ts): without it a
-- rare type's page (dispute.closed among a million payment events of one merchant) walked the
-- merchant's events newest first and threw away all but a few: 870 ms on PostgreSQL 15 with
-- 1.2 M events; with it, 0.1 ms. Unfiltered pages need no new index: events_merchant (001)
-- serves them in 0.1 ms at any depth, in both directions.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_merchant_type
  ON events (merchant_id, livemode, type, created_at DESC, id DESC);
