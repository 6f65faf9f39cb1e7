-- A merchant's own accounts at external gateways (Stripe, Adyen), per mode. The merchant names one
-- by `gateway_id` when it creates a payment intent. Credentials are sealed with a key derived
-- from the master key (AES-256-GCM, bound to the account id) and are never stored in clear;
-- `credentials_hint` keeps the last characters of each, for the operator to recognise them.
CREATE TABLE gateway_accounts (
  id                 text PRIMARY KEY,
  merchant_id        text NOT NULL REFERENCES merchants (id),
  livemode           boolean NOT NULL,
  connector          text NOT NULL,
  gateway_id         text NOT NULL,
  settings           jsonb NOT NULL,
  credentials_sealed text NOT NULL,
  credentials_hint   jsonb NOT NULL,
  status             text NOT NULL CHECK (status IN ('enabled', 'disabled')),
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  -- One account per gateway_id and mode: a disabled one keeps its id, so payments made through it
  -- can still be refunded and reconciled, and the id never silently points elsewhere.
  CONSTRAINT gateway_accounts_one_per_gateway_id UNIQUE (merchant_id, livemode, gateway_id)
);
CREATE INDEX gateway_accounts_newest_first ON gateway_accounts (merchant_id, created_at DESC, id DESC);
