-- Webhook endpoints, one delivery per (event, subscribed endpoint), and every attempt made.

CREATE TABLE webhook_endpoints (
  id                        text PRIMARY KEY,
  merchant_id               text NOT NULL REFERENCES merchants (id),
  livemode                  boolean NOT NULL,
  url                       text NOT NULL,
  -- Event types this endpoint receives; '*' means every type, also types added later.
  enabled_events            text[] NOT NULL,
  -- Signing secrets sealed with AES-256-GCM (see webhooks/secret-box.ts); never stored in clear.
  -- While a rotation is open, the previous secret signs too.
  secret_sealed             text NOT NULL,
  previous_secret_sealed    text,
  rotation_started_at       timestamptz,
  status                    text NOT NULL CHECK (status IN ('enabled', 'failing', 'disabled')),
  -- First failed attempt after the last success (null while deliveries succeed).
  failing_since             timestamptz,
  failed_deliveries_since_success integer NOT NULL DEFAULT 0,
  created_at                timestamptz NOT NULL,
  updated_at                timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints (merchant_id, livemode);

-- A delivery is due when next_attempt_at has passed. While a worker holds it, next_attempt_at is
-- the end of that worker's lease and claim_token names the claim: a worker killed mid-attempt
-- leaves a lease that expires, and the attempt is made again by another worker.
CREATE TABLE webhook_deliveries (
  id                 text PRIMARY KEY,
  event_id           text NOT NULL REFERENCES events (id),
  endpoint_id        text NOT NULL REFERENCES webhook_endpoints (id),
  status             text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
  -- Scheduled attempts made (0..6); the schedule is anchored on first_attempt_at.
  attempts_made      integer NOT NULL DEFAULT 0 CHECK (attempts_made BETWEEN 0 AND 6),
  -- All attempts recorded, scheduled and manual: the last attempt_number used.
  attempt_count      integer NOT NULL DEFAULT 0,
  first_attempt_at   timestamptz,
  next_attempt_at    timestamptz,
  claim_token        text,
  delivered_at       timestamptz,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (endpoint_id, created_at) WHERE status = 'FAILED';

-- One row per attempt whose outcome is known. schedule_slot (1..6) is set for scheduled attempts
-- and null for manual ones: no slot of a delivery is ever recorded twice.
CREATE TABLE webhook_attempts (
  delivery_id       text NOT NULL REFERENCES webhook_deliveries (id),
  attempt_number    integer NOT NULL,
  schedule_slot     integer CHECK (schedule_slot BETWEEN 1 AND 6),
  attempted_at      timestamptz NOT NULL,
  status_code       integer,
  latency_ms        integer NOT NULL,
  error             text,
  response_excerpt  text,
  PRIMARY KEY (delivery_id, attempt_number),
  UNIQUE (delivery_id, schedule_slot)
);
