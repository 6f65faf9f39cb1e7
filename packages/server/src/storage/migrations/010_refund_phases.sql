-- Refunds in phases (docs/decisions/money-safety.md): the refund row commits before the gateway is
-- called, so it is also the idempotency layer's recovery point. A retry of the merchant's request
-- (same Idempotency-Key) finds it by the key and the request's hash, instead of starting a second
-- refund. Null on refunds made before this migration (they committed with their answer).
ALTER TABLE refunds ADD COLUMN request_key text;
ALTER TABLE refunds ADD COLUMN request_hash text;
CREATE INDEX refunds_by_request ON refunds (merchant_id, livemode, request_key)
  WHERE request_key IS NOT NULL;
