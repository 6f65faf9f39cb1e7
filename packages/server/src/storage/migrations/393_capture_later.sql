-- Authorise now, capture later (issue 43; CONTRACT.md, "Additions of contract v1, second round"):
-- a manual intent whose charge is authorised is REQUIRES_CAPTURE until its capture (SUCCEEDED, of
-- all or part of the authorisation), its void or the lapse of its authorisation (CANCELED). The
-- gateway calls on an authorisation (capture, void) are made in phases like refunds: each is a
-- row of authorization_operations, written PENDING with its derived gateway key before the call
-- (the recovery point), settled after it, finished by the repair job when the answer was lost.

-- paygate:contract widening the status check: it admits every status the previous release
-- writes, and REQUIRES_CAPTURE, which only this release writes (the previous one never reads it).
ALTER TABLE payment_intents DROP CONSTRAINT payment_intents_status_check;
-- paygate:contract the widened status check, added NOT VALID and validated below (no long lock).
ALTER TABLE payment_intents ADD CONSTRAINT payment_intents_status_check CHECK (status IN
  ('CREATED', 'REQUIRES_ACTION', 'PROCESSING', 'REQUIRES_CAPTURE', 'SUCCEEDED', 'FAILED', 'CANCELED',
   'EXPIRED')) NOT VALID;
ALTER TABLE payment_intents VALIDATE CONSTRAINT payment_intents_status_check;

ALTER TABLE payment_intents ADD COLUMN capture_method text NOT NULL DEFAULT 'automatic'
  CHECK (capture_method IN ('automatic', 'manual'));
-- What a manual intent's capture took; null until then (an automatic intent captures its amount).
ALTER TABLE payment_intents ADD COLUMN amount_captured_minor bigint
  CHECK (amount_captured_minor BETWEEN 1 AND amount_minor);
-- When the gateway drops the authorisation of a REQUIRES_CAPTURE intent.
ALTER TABLE payment_intents ADD COLUMN capture_before timestamptz;

CREATE TABLE authorization_operations (
  id                       text PRIMARY KEY,
  merchant_id              text NOT NULL REFERENCES merchants (id),
  livemode                 boolean NOT NULL,
  payment_intent_id        text NOT NULL REFERENCES payment_intents (id),
  kind                     text NOT NULL CHECK (kind IN ('capture', 'void')),
  -- A capture's amount; a void's is the authorisation it releases.
  amount_minor             bigint NOT NULL CHECK (amount_minor BETWEEN 1 AND 999999999999),
  currency                 text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  gateway_id               text NOT NULL,
  -- Derived from the authorised attempt's key and the operation's number: every try of this
  -- operation, in any process, after any crash, sends the same key and the same body.
  gateway_idempotency_key  text NOT NULL UNIQUE,
  status                   text NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
  gateway_reference        text,
  failure_message          text,
  -- The merchant's Idempotency-Key and request hash, which find the operation a retry resumes.
  request_key              text,
  request_hash             text,
  -- While PENDING: when the repair job takes it up (the caller's lease, then its back-off).
  next_sync_at             timestamptz,
  tries                    integer NOT NULL DEFAULT 0,
  created_at               timestamptz NOT NULL,
  updated_at               timestamptz NOT NULL
);
-- One operation in flight per intent: two concurrent captures give one capture and one 409.
CREATE UNIQUE INDEX authorization_operations_one_pending ON authorization_operations (payment_intent_id)
  WHERE status = 'PENDING';
CREATE INDEX authorization_operations_due ON authorization_operations (next_sync_at)
  WHERE status = 'PENDING';
CREATE INDEX authorization_operations_of_intent ON authorization_operations (payment_intent_id, created_at);
