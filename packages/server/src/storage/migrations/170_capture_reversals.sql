-- Capture reversals (issue 29, item 3; docs/decisions/money-safety.md): the gateway reports that
-- a charge it had captured was not (Adyen CAPTURE_FAILED) or was cancelled or refunded outside
-- Paygate. The contract has no way back from SUCCEEDED, so the intent keeps its status and the
-- difference is kept here for the operator, with its evidence, until settled with the gateway.
CREATE TABLE capture_reversals (
  id                  text PRIMARY KEY,
  merchant_id         text NOT NULL REFERENCES merchants (id),
  livemode            boolean NOT NULL,
  payment_intent_id   text NOT NULL,
  attempt_number      integer NOT NULL,
  gateway_id          text NOT NULL,
  -- The gateway's reference of the charge and of the reversal (Adyen originalReference, pspReference).
  charge_reference    text,
  reversal_reference  text NOT NULL,
  -- What the gateway says it reversed (null when it did not say); the intent's amount is on the intent.
  amount_minor        bigint,
  currency            text,
  intent_status       text NOT NULL,
  message             text NOT NULL,
  detected_at         timestamptz NOT NULL,
  UNIQUE (gateway_id, reversal_reference),
  FOREIGN KEY (payment_intent_id, attempt_number)
    REFERENCES charge_attempts (payment_intent_id, attempt_number)
);
CREATE INDEX capture_reversals_by_merchant ON capture_reversals (merchant_id, detected_at);
