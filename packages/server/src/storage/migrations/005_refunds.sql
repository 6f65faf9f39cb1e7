-- Refunds of SUCCEEDED payment intents. A refund is PENDING until the gateway settles it; pending
-- and succeeded refunds both count against what remains refundable, which is checked under the
-- intent's row lock (see app/create-refund.ts).
CREATE TABLE refunds (
  id                       text PRIMARY KEY,
  merchant_id              text NOT NULL REFERENCES merchants (id),
  livemode                 boolean NOT NULL,
  payment_intent_id        text NOT NULL REFERENCES payment_intents (id),
  amount_minor             bigint NOT NULL CHECK (amount_minor BETWEEN 1 AND 999999999999),
  currency                 text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  status                   text NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
  metadata                 jsonb NOT NULL DEFAULT '{}'::jsonb,
  gateway_id               text NOT NULL,
  -- Ours, derived from the merchant's Idempotency-Key (see docs/decisions/refunds-and-transactions.md);
  -- the gateway deduplicates by it, and reconciliation reads the refund back by it.
  gateway_idempotency_key  text NOT NULL UNIQUE,
  gateway_reference        text,
  failure_message          text,
  -- When reconciliation asks the gateway about a PENDING refund next; null once settled.
  next_sync_at             timestamptz,
  created_at               timestamptz NOT NULL,
  updated_at               timestamptz NOT NULL
);
-- The refundable balance of one intent sums its refunds.
CREATE INDEX refunds_by_intent ON refunds (payment_intent_id, status);
-- Reconciliation scans only the refunds that still wait for the gateway, the most overdue first.
CREATE INDEX refunds_pending ON refunds (next_sync_at) WHERE status = 'PENDING';

-- 002 left refund_id without a reference because the refunds table did not exist yet.
ALTER TABLE transactions
  ADD CONSTRAINT transactions_refund_fk FOREIGN KEY (refund_id) REFERENCES refunds (id);
