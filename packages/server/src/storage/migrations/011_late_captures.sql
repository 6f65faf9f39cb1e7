-- Late captures (docs/decisions/money-safety.md): a charge the gateway reports succeeded after its
-- intent became final otherwise (CANCELED, EXPIRED, FAILED). The gateway holds the payer's money
-- while Paygate's books say it was not taken, so the capture is recorded here, on its attempt, in
-- the transaction that learns of it, and a worker refunds it at the gateway.
CREATE TABLE late_captures (
  id                      text PRIMARY KEY,
  merchant_id             text NOT NULL REFERENCES merchants (id),
  livemode                boolean NOT NULL,
  payment_intent_id       text NOT NULL,
  attempt_number          integer NOT NULL,
  gateway_id              text NOT NULL,
  -- The gateway's reference of the captured charge: what the repair refunds.
  charge_reference        text NOT NULL,
  amount_minor            bigint NOT NULL CHECK (amount_minor BETWEEN 1 AND 999999999999),
  currency                text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  -- The intent's status when the capture arrived, and how it arrived.
  intent_status           text NOT NULL,
  detected_by             text NOT NULL CHECK (detected_by IN ('charge', 'sync', 'notification')),
  -- REFUND_DUE: the refund is to be sent (or sent again: the gateway deduplicates by its key);
  -- REFUND_PENDING: the gateway took it and settles it later; REFUNDED: repaired;
  -- REFUND_FAILED: the gateway refused the refund, the operator must act.
  repair_status           text NOT NULL CHECK (repair_status IN
                            ('REFUND_DUE', 'REFUND_PENDING', 'REFUNDED', 'REFUND_FAILED')),
  -- '<attempt key>:refund', derived, at most 64 characters; the gateway deduplicates by it.
  refund_idempotency_key  text NOT NULL UNIQUE,
  refund_reference        text,
  failure_message         text,
  tries                   integer NOT NULL DEFAULT 0,
  -- When the repair worker looks at it next; null once REFUNDED or REFUND_FAILED.
  next_repair_at          timestamptz,
  detected_at             timestamptz NOT NULL,
  updated_at              timestamptz NOT NULL,
  UNIQUE (payment_intent_id, attempt_number),
  FOREIGN KEY (payment_intent_id, attempt_number)
    REFERENCES charge_attempts (payment_intent_id, attempt_number)
);
CREATE INDEX late_captures_due ON late_captures (next_repair_at) WHERE next_repair_at IS NOT NULL;
CREATE INDEX late_captures_by_status ON late_captures (repair_status, detected_at);
