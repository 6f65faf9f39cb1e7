-- Confirmation: one row per charge Paygate sends (or will send) to a gateway for an intent, and
-- the gateway notifications already applied.
--
-- A confirm commits its attempt (status CHARGING) before it calls the gateway and applies the
-- answer in a second transaction, so no transaction stays open across a network call. The
-- partial unique index allows one open attempt per intent: a second, concurrent confirm meets it
-- and is refused, and a crash between the two transactions leaves a row that reconciliation finds.
CREATE TABLE charge_attempts (
  payment_intent_id     text NOT NULL REFERENCES payment_intents (id),
  attempt_number        integer NOT NULL CHECK (attempt_number >= 1),
  merchant_id           text NOT NULL REFERENCES merchants (id),
  livemode              boolean NOT NULL,
  gateway_id            text NOT NULL,
  -- '<pi id>:attempt:<n>', sent with the charge; the gateway deduplicates by it and its
  -- notifications carry it back.
  idempotency_key       text NOT NULL UNIQUE,
  -- A gateway-issued token, never card data; kept for the delayed charge of the amount-13 rule.
  payment_method_token  text NOT NULL,
  status                text NOT NULL CHECK (status IN
                          ('CHARGING', 'DELAYED', 'REQUIRES_ACTION', 'PROCESSING',
                           'SUCCEEDED', 'FAILED', 'UNAVAILABLE', 'ABANDONED')),
  gateway_reference     text,
  failure_code          text,
  -- When a worker looks at the attempt next: the due time of a delayed charge, or the next
  -- reconciliation check. Null once the attempt is closed.
  next_check_at         timestamptz,
  checks                integer NOT NULL DEFAULT 0,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  PRIMARY KEY (payment_intent_id, attempt_number)
);
CREATE UNIQUE INDEX charge_attempts_one_open ON charge_attempts (payment_intent_id)
  WHERE status IN ('CHARGING', 'DELAYED', 'REQUIRES_ACTION', 'PROCESSING');
-- The delayed-charge and reconciliation workers scan only attempts that still need a look.
CREATE INDEX charge_attempts_due ON charge_attempts (status, next_check_at)
  WHERE next_check_at IS NOT NULL;

-- Deduplication of gateway notifications: the row is inserted in the transaction that applies
-- the notification, so a redelivery finds it and changes nothing.
CREATE TABLE gateway_notifications (
  gateway_id        text NOT NULL,
  notification_id   text NOT NULL,
  subject           text NOT NULL,
  idempotency_key   text NOT NULL,
  received_at       timestamptz NOT NULL,
  PRIMARY KEY (gateway_id, notification_id)
);
