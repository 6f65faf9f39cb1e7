-- paygate:no-transaction
-- The back office's events list reads one merchant's events of one mode newest first by
-- (created_at, id) (storage/repositories/event-log.ts, domain/keyset.ts): with the id in the key a
-- page starts exactly at its cursor and reads only its own rows, ties on created_at included.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_merchant_keyset
  ON events (merchant_id, livemode, created_at DESC, id DESC);
