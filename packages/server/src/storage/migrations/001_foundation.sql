-- Foundation: merchants, API keys, payment intents, the event outbox and idempotency keys.
-- Every table that holds merchant data is keyed by (merchant_id, livemode) first, so test and
-- live data never meet and a future sharding by merchant needs no re-keying.

CREATE TABLE merchants (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL
);

CREATE TABLE api_keys (
  id           text PRIMARY KEY,
  merchant_id  text NOT NULL REFERENCES merchants (id),
  livemode     boolean NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('secret', 'publishable')),
  -- SHA-256 of the full key, hex. The key itself is never stored.
  key_hash     text NOT NULL UNIQUE,
  key_hint     text NOT NULL,
  permissions  text[],
  created_at   timestamptz NOT NULL,
  revoked_at   timestamptz
);
CREATE INDEX api_keys_merchant ON api_keys (merchant_id, livemode);

CREATE TABLE payment_intents (
  id                     text PRIMARY KEY,
  merchant_id            text NOT NULL REFERENCES merchants (id),
  livemode               boolean NOT NULL,
  amount_minor           bigint NOT NULL CHECK (amount_minor BETWEEN 1 AND 999999999999),
  currency               text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  status                 text NOT NULL CHECK (status IN
                           ('CREATED', 'REQUIRES_ACTION', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'EXPIRED')),
  gateway_id             text NOT NULL,
  redirect_url           text,
  return_url             text,
  metadata               jsonb NOT NULL DEFAULT '{}'::jsonb,
  amount_refunded_minor  bigint NOT NULL DEFAULT 0 CHECK (amount_refunded_minor >= 0 AND amount_refunded_minor <= amount_minor),
  cancellation_reason    text,
  expires_at             timestamptz NOT NULL,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL
);
CREATE INDEX payment_intents_merchant ON payment_intents (merchant_id, livemode, created_at DESC, id DESC);
-- The expiry worker scans only intents that can still expire.
CREATE INDEX payment_intents_expiring ON payment_intents (expires_at)
  WHERE status IN ('CREATED', 'REQUIRES_ACTION');

-- The outbox: one row per event, written in the same transaction as the change it reports.
-- payload is the exact JSON text that is signed and delivered, fixed at creation.
CREATE TABLE events (
  id           text PRIMARY KEY,
  merchant_id  text NOT NULL REFERENCES merchants (id),
  livemode     boolean NOT NULL,
  type         text NOT NULL,
  object_id    text NOT NULL,
  payload      text NOT NULL,
  created_at   timestamptz NOT NULL
);
CREATE INDEX events_merchant ON events (merchant_id, livemode, created_at DESC);
CREATE INDEX events_object ON events (object_id);

-- A key's row exists only once its request has finished (it is written in the same transaction
-- as the work); a request in flight holds a transaction-scoped advisory lock instead, which
-- PostgreSQL releases by itself if the process dies.
CREATE TABLE idempotency_keys (
  merchant_id      text NOT NULL REFERENCES merchants (id),
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
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

-- Single-row operator settings (for example the generated admin token's hash).
CREATE TABLE settings (
  name   text PRIMARY KEY,
  value  text NOT NULL
);
