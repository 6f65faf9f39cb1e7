-- Embed domains: the web origins allowed to frame a merchant's checkout. The frame is served with
-- a Content-Security-Policy frame-ancestors list built from these rows. An origin belongs to the
-- merchant's site, which takes both test and live payments, so the rows are not split by mode.
CREATE TABLE embed_domains (
  merchant_id  text NOT NULL REFERENCES merchants (id),
  -- Canonical form: lowercase scheme and host, default port omitted, no path (`https://shop.example`).
  origin       text NOT NULL CHECK (origin ~ '^https?://[^/?#[:space:]]+$'),
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, origin)
);
