-- The dashboard's payment search: by status newest first, and by a metadata key or key/value
-- (GIN answers both `metadata ? key` and `metadata @> {key: value}`). Id, amount range and
-- currency filter the rows these indexes (or payment_intents_merchant) walk in time order.
CREATE INDEX payment_intents_by_status ON payment_intents (merchant_id, livemode, status, created_at DESC, id DESC);
CREATE INDEX payment_intents_metadata ON payment_intents USING gin (metadata);
