-- The operator's Idempotency-Keys (issue 41 item 6: a repeated POST /admin/v1/deprecations made a
-- second announcement and e-mailed every owner again). The same columns as idempotency_keys,
-- whose merchant_id must name a merchant; here it is always the operator's key space.
CREATE TABLE operator_idempotency_keys (
  merchant_id      text NOT NULL CHECK (merchant_id = 'operator'),
  livemode         boolean NOT NULL,
  idempotency_key  text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
  request_method   text NOT NULL,
  request_path     text NOT NULL,
  request_hash     text NOT NULL,
  response_status  integer NOT NULL,
  response_body    text NOT NULL,
  created_at       timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, livemode, idempotency_key)
);
CREATE INDEX operator_idempotency_keys_expiry ON operator_idempotency_keys (expires_at);
