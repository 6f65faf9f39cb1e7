-- The back office's webhook page: what an attempt exchanged, rotations that end by themselves, and
-- the mail outbox that tells a merchant's owners and developers about a failing endpoint.

-- The headers we sent (never the body: the merchant has the event) and the headers the receiver
-- answered with, each a JSON object bounded by the sender (webhooks/attempt-headers.ts).
ALTER TABLE webhook_attempts ADD COLUMN request_headers jsonb;
ALTER TABLE webhook_attempts ADD COLUMN response_headers jsonb;

-- While a rotation is open, the instant it closes by itself (null: only by hand).
ALTER TABLE webhook_endpoints ADD COLUMN rotation_expires_at timestamptz;
CREATE INDEX webhook_endpoints_rotation_due ON webhook_endpoints (rotation_expires_at)
  WHERE rotation_expires_at IS NOT NULL;

-- Mail to send, written in the transaction of the change it reports (a durable outbox): a crash
-- before sending loses nothing, and dedupe_key makes a second writer of the same notice a no-op.
-- Sending claims rows like the webhook worker does (claim_token + lease in next_attempt_at).
CREATE TABLE mail_outbox (
  id               text PRIMARY KEY,
  merchant_id      text REFERENCES merchants (id),
  dedupe_key       text NOT NULL UNIQUE,
  recipients       text[] NOT NULL,
  subject          text NOT NULL,
  body_text        text NOT NULL,
  status           text NOT NULL CHECK (status IN ('PENDING', 'SENT', 'FAILED')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  claim_token      text,
  last_error       text,
  sent_at          timestamptz,
  created_at       timestamptz NOT NULL
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
