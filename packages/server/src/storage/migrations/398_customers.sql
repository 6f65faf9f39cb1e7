-- Customers (issue 44; CONTRACT.md, "Additions of contract v1, second round": Customers): a
-- merchant's customer in one mode, whom saved payment methods will belong to. Only what the
-- merchant gives is kept (e-mail, name, metadata), never card data. A deleted customer keeps its
-- row (deleted_at), so that what referred to it still resolves and a repeated DELETE answers the
-- same; lists and look-ups by id leave it out.
CREATE TABLE customers (
  id          text PRIMARY KEY,
  merchant_id text NOT NULL REFERENCES merchants (id),
  livemode    boolean NOT NULL,
  email       text CHECK (char_length(email) BETWEEN 3 AND 254),
  name        text CHECK (char_length(name) BETWEEN 1 AND 200),
  metadata    jsonb NOT NULL DEFAULT '{}'::jsonb,
  version     integer NOT NULL DEFAULT 1,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  deleted_at  timestamptz
);
-- The list, newest first, per tenant; and the same filtered by e-mail without regard to case.
CREATE INDEX customers_of_tenant ON customers (merchant_id, livemode, created_at DESC, id DESC)
  WHERE deleted_at IS NULL;
CREATE INDEX customers_by_email ON customers (merchant_id, livemode, lower(email), created_at DESC, id DESC)
  WHERE deleted_at IS NULL AND email IS NOT NULL;
