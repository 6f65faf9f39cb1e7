-- Saved payment methods (issue 44; CONTRACT.md, second round): a customer's payment method kept at
-- one gateway account, saved when a payment made with setup_future_usage succeeded. Only the
-- gateway's reusable reference is kept (never card data), and never shown. A detached method keeps
-- its row (status, detached_at) so that it stays listed and a repeated detach answers the same.
CREATE TABLE saved_payment_methods (
  id                 text PRIMARY KEY,
  merchant_id        text NOT NULL REFERENCES merchants (id),
  livemode           boolean NOT NULL,
  customer_id        text NOT NULL REFERENCES customers (id),
  gateway_id         text NOT NULL,
  gateway_reference  text NOT NULL CHECK (char_length(gateway_reference) BETWEEN 1 AND 255),
  -- The payment whose success saved it: one method per payment, so a success applied twice (the
  -- confirm's answer and the gateway's notification) saves it once.
  payment_intent_id  text NOT NULL UNIQUE REFERENCES payment_intents (id),
  status             text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'detached')),
  version            integer NOT NULL DEFAULT 1,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  detached_at        timestamptz,
  -- A detached method is removed at the gateway too: 'pending' until the gateway confirms it
  -- (retried at gateway_detach_due_at after a 5xx, a time-out or a crash), then 'done'.
  gateway_detach         text CHECK (gateway_detach IN ('pending', 'done')),
  gateway_detach_tries   integer NOT NULL DEFAULT 0,
  gateway_detach_due_at  timestamptz,
  CHECK ((status = 'detached') = (detached_at IS NOT NULL)),
  CHECK ((status = 'detached') = (gateway_detach IS NOT NULL))
);
-- A customer's methods, newest first.
CREATE INDEX saved_payment_methods_of_customer
  ON saved_payment_methods (customer_id, created_at DESC, id DESC);
-- The detaches the gateway has not confirmed yet, by when they are due (the repair job).
CREATE INDEX saved_payment_methods_to_detach ON saved_payment_methods (gateway_detach_due_at)
  WHERE gateway_detach = 'pending';
