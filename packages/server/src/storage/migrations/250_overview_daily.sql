-- The dashboard overview's daily roll-up, kept by the writes: one row per merchant, mode, UTC
-- day, currency, transaction type and settled status (and slot, below) with its count and
-- amount. Triggers on transactions keep it exact on every insert, status change and delete, in
-- the writer's own transaction, so no application code on the payment path changes and the
-- overview reads a few hundred rows instead of scanning a month of transactions.
--
-- slot spreads one day's counters over 16 rows (by the transaction id's hash): without it, every
-- payment of a busy merchant on one day would queue on the same row lock until its commit.
CREATE TABLE overview_daily (
  merchant_id   text NOT NULL,
  livemode      boolean NOT NULL,
  day           date NOT NULL,
  currency      text NOT NULL,
  type          text NOT NULL,
  status        text NOT NULL,
  slot          smallint NOT NULL,
  count         bigint NOT NULL,
  amount_minor  bigint NOT NULL,
  PRIMARY KEY (merchant_id, livemode, day, currency, type, status, slot)
);

-- Failed payments by reason (the decline code of last_payment_error, else its error code), per
-- UTC day of the failure; kept by a trigger on payment_intents the same way.
CREATE TABLE overview_declines (
  merchant_id   text NOT NULL,
  livemode      boolean NOT NULL,
  day           date NOT NULL,
  currency      text NOT NULL,
  reason        text NOT NULL,
  slot          smallint NOT NULL,
  count         bigint NOT NULL,
  PRIMARY KEY (merchant_id, livemode, day, currency, reason, slot)
);

CREATE FUNCTION overview_daily_add(t transactions, sign integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF t.status = 'PENDING' THEN
    RETURN;
  END IF;
  INSERT INTO overview_daily AS o (merchant_id, livemode, day, currency, type, status, slot, count, amount_minor)
  VALUES (t.merchant_id, t.livemode, (t.created_at AT TIME ZONE 'UTC')::date, t.currency, t.type, t.status,
          hashtext(t.id) & 15, sign, sign * t.amount_minor)
  ON CONFLICT (merchant_id, livemode, day, currency, type, status, slot)
  DO UPDATE SET count = o.count + EXCLUDED.count, amount_minor = o.amount_minor + EXCLUDED.amount_minor;
END $$;

CREATE FUNCTION overview_daily_on_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM overview_daily_add(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM overview_daily_add(NEW, 1);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER transactions_overview_daily_insert AFTER INSERT ON transactions
  FOR EACH ROW EXECUTE FUNCTION overview_daily_on_transactions();
CREATE TRIGGER transactions_overview_daily_delete AFTER DELETE ON transactions
  FOR EACH ROW EXECUTE FUNCTION overview_daily_on_transactions();
CREATE TRIGGER transactions_overview_daily_update AFTER UPDATE ON transactions
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.amount_minor IS DISTINCT FROM NEW.amount_minor
        OR OLD.currency IS DISTINCT FROM NEW.currency OR OLD.type IS DISTINCT FROM NEW.type
        OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.merchant_id IS DISTINCT FROM NEW.merchant_id
        OR OLD.livemode IS DISTINCT FROM NEW.livemode)
  EXECUTE FUNCTION overview_daily_on_transactions();

CREATE FUNCTION overview_declines_on_payment_intents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO overview_declines AS o (merchant_id, livemode, day, currency, reason, slot, count)
  VALUES (NEW.merchant_id, NEW.livemode, (NEW.updated_at AT TIME ZONE 'UTC')::date, NEW.currency,
          COALESCE(NEW.last_error_decline_code, NEW.last_error_code, 'unknown'), hashtext(NEW.id) & 15, 1)
  ON CONFLICT (merchant_id, livemode, day, currency, reason, slot)
  DO UPDATE SET count = o.count + 1;
  RETURN NULL;
END $$;

CREATE TRIGGER payment_intents_overview_declines AFTER UPDATE OF status ON payment_intents
  FOR EACH ROW WHEN (NEW.status = 'FAILED' AND OLD.status IS DISTINCT FROM 'FAILED')
  EXECUTE FUNCTION overview_declines_on_payment_intents();

-- What was written before the triggers: the triggers are created first, in this same
-- transaction, and their lock on the tables holds writers until it commits, so nothing is
-- counted twice or missed.
INSERT INTO overview_daily (merchant_id, livemode, day, currency, type, status, slot, count, amount_minor)
SELECT merchant_id, livemode, (created_at AT TIME ZONE 'UTC')::date, currency, type, status, 0,
       count(*), sum(amount_minor)
  FROM transactions
 WHERE status <> 'PENDING'
 GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO overview_declines (merchant_id, livemode, day, currency, reason, slot, count)
SELECT merchant_id, livemode, (updated_at AT TIME ZONE 'UTC')::date, currency,
       COALESCE(last_error_decline_code, last_error_code, 'unknown'), 0, count(*)
  FROM payment_intents
 WHERE status = 'FAILED'
 GROUP BY 1, 2, 3, 4, 5;
