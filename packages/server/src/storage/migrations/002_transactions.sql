-- The merchant's ledger view: one PAYMENT row per confirmed intent and one REFUND row per refund,
-- each settling (APPROVED or DECLINED) with its intent or refund. The list endpoint walks these
-- newest first by keyset on (created_at, id), so every filter combination has an index that
-- starts with the tenant and ends with that order.
CREATE TABLE transactions (
  id                 text PRIMARY KEY,
  merchant_id        text NOT NULL REFERENCES merchants (id),
  livemode           boolean NOT NULL,
  type               text NOT NULL CHECK (type IN ('PAYMENT', 'REFUND')),
  status             text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'DECLINED')),
  amount_minor       bigint NOT NULL CHECK (amount_minor > 0),
  currency           text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  payment_intent_id  text NOT NULL REFERENCES payment_intents (id),
  refund_id          text,
  gateway_id         text NOT NULL,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  CHECK ((type = 'PAYMENT') = (refund_id IS NULL))
);
CREATE INDEX transactions_by_time ON transactions (merchant_id, livemode, created_at DESC, id DESC);
CREATE INDEX transactions_by_status ON transactions (merchant_id, livemode, status, created_at DESC, id DESC);
CREATE INDEX transactions_by_type ON transactions (merchant_id, livemode, type, created_at DESC, id DESC);
CREATE INDEX transactions_by_type_status ON transactions (merchant_id, livemode, type, status, created_at DESC, id DESC);
-- A confirmed intent has exactly one PAYMENT transaction, whatever retries happen.
CREATE UNIQUE INDEX transactions_one_payment ON transactions (payment_intent_id) WHERE type = 'PAYMENT';
CREATE UNIQUE INDEX transactions_one_per_refund ON transactions (refund_id) WHERE refund_id IS NOT NULL;
