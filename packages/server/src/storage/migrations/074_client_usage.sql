-- Which Paygate client libraries and versions call the API, per merchant and mode, from the
-- User-Agent the clients send (the specification's telemetry). Processes count in memory and add
-- their counts here periodically and at shutdown: no write per API request.
CREATE TABLE client_usage (
  merchant_id    text NOT NULL REFERENCES merchants (id),
  livemode       boolean NOT NULL,
  client         text NOT NULL,
  version        text NOT NULL,
  request_count  bigint NOT NULL CHECK (request_count > 0),
  first_seen_at  timestamptz NOT NULL,
  last_seen_at   timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, livemode, client, version)
);
