-- A payment's second phase in ONE statement (one round trip, its own commit): what a gateway said
-- about a charge, applied to the intent, its attempt, its PAYMENT transaction and the outbox. Also
-- the one definition of an event's outbox write (paygate_insert_event), which
-- storage/repositories/events.ts calls too. docs/decisions/payment-sql-functions.md.

-- Writes an event and one PENDING delivery (due at once) for every endpoint of the merchant and
-- mode that subscribes to its type and is not disabled; returns whether any delivery was queued.
-- A delivery id is p_delivery_prefix, the 20 random characters p_delivery_stem drawn once per
-- event, and the endpoint's rank among the event's endpoints in 4 base62 digits (migration 040).
-- The caller wakes the delivery workers after the commit when a delivery was queued (no NOTIFY
-- inside a writing transaction: docs/decisions/webhooks.md, "Wake-up").
CREATE OR REPLACE FUNCTION paygate_insert_event(
  p_id text,
  p_merchant_id text,
  p_livemode boolean,
  p_type text,
  p_object_id text,
  p_payload text,
  p_created_at timestamptz,
  p_delivery_stem text,
  p_delivery_prefix text
) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (id, merchant_id, livemode, type, object_id, payload, created_at)
  VALUES (p_id, p_merchant_id, p_livemode, p_type, p_object_id, p_payload, p_created_at);
  INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at, created_at, updated_at)
  SELECT p_delivery_prefix || p_delivery_stem || base62_digits(subscribed.rank, 4), p_id, subscribed.id,
         'PENDING', p_created_at, p_created_at, p_created_at
    FROM (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS rank FROM webhook_endpoints
           WHERE merchant_id = p_merchant_id AND livemode = p_livemode AND status <> 'disabled'
             AND (p_type = ANY (enabled_events) OR '*' = ANY (enabled_events))) AS subscribed;
  RETURN FOUND;
END
$$;

-- Applies one state step that the application decided (charge-outcomes.ts, intent-status.ts),
-- every write guarded by the state it was decided on:
--   the intent (p_intent_from not null): from status p_intent_from at version p_intent_version to
--     p_intent_to, as updatePaymentIntentStatus did;
--   the attempt (p_attempt_number not null): from status p_attempt_from with p_attempt_checks
--     checks, as updateAttempt did;
--   the PAYMENT transaction: 'APPROVED' or 'DECLINED' settles the PENDING one, 'DELETE' removes it;
--   the event (p_event_id not null), through paygate_insert_event.
-- Returns 'stale' and writes nothing when the intent or the attempt is no longer as decided on
-- (another transaction changed it first: the caller reads both again under their locks and
-- decides again); 'applied', or 'queued' when the event queued deliveries. An attempt found
-- changed after the intent was written raises SQLSTATE PGSTL, which rolls the statement back.
-- The intent's row is locked first, as by every writer of both.
CREATE OR REPLACE FUNCTION paygate_apply_payment_change(
  p_intent_id text,
  p_now timestamptz,
  p_intent_from text,
  p_intent_version integer,
  p_intent_to text,
  p_redirect_url text,
  p_cancellation_reason text,
  p_error_code text,
  p_error_decline_code text,
  p_error_gateway_code text,
  p_error_message text,
  p_attempt_number integer,
  p_attempt_from text,
  p_attempt_checks integer,
  p_attempt_to text,
  p_gateway_reference text,
  p_failure_code text,
  p_next_check_at timestamptz,
  p_checked integer,
  p_connector_data text,
  p_payment_transaction text,
  p_event_id text,
  p_merchant_id text,
  p_livemode boolean,
  p_event_type text,
  p_object_id text,
  p_event_payload text,
  p_event_created_at timestamptz,
  p_delivery_stem text,
  p_delivery_prefix text
) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  IF p_intent_from IS NOT NULL THEN
    UPDATE payment_intents
       SET status = p_intent_to,
           version = version + 1,
           redirect_url = p_redirect_url,
           cancellation_reason = COALESCE(p_cancellation_reason, cancellation_reason),
           updated_at = p_now,
           last_error_code = COALESCE(p_error_code, last_error_code),
           last_error_decline_code = CASE WHEN p_error_code IS NULL THEN last_error_decline_code ELSE p_error_decline_code END,
           last_error_message = COALESCE(p_error_message, last_error_message),
           last_error_gateway_code = CASE WHEN p_error_code IS NULL THEN last_error_gateway_code ELSE p_error_gateway_code END
     WHERE id = p_intent_id AND status = p_intent_from AND version = p_intent_version;
    IF NOT FOUND THEN
      RETURN 'stale';
    END IF;
  END IF;
  IF p_attempt_number IS NOT NULL THEN
    UPDATE charge_attempts
       SET status = p_attempt_to,
           gateway_reference = COALESCE(p_gateway_reference, gateway_reference),
           failure_code = COALESCE(p_failure_code, failure_code),
           next_check_at = p_next_check_at,
           checks = checks + p_checked,
           updated_at = p_now,
           connector_data = COALESCE(p_connector_data, connector_data)
     WHERE payment_intent_id = p_intent_id AND attempt_number = p_attempt_number
       AND status = p_attempt_from AND checks = p_attempt_checks;
    IF NOT FOUND THEN
      IF p_intent_from IS NULL THEN
        RETURN 'stale';
      END IF;
      RAISE EXCEPTION 'attempt % of % is no longer %', p_attempt_number, p_intent_id, p_attempt_from
        USING ERRCODE = 'PGSTL';
    END IF;
  END IF;
  IF p_payment_transaction = 'DELETE' THEN
    DELETE FROM transactions WHERE payment_intent_id = p_intent_id AND type = 'PAYMENT' AND status = 'PENDING';
  ELSIF p_payment_transaction IS NOT NULL THEN
    UPDATE transactions SET status = p_payment_transaction, updated_at = p_now
     WHERE payment_intent_id = p_intent_id AND type = 'PAYMENT' AND status = 'PENDING';
  END IF;
  IF p_event_id IS NOT NULL AND paygate_insert_event(p_event_id, p_merchant_id, p_livemode, p_event_type,
       p_object_id, p_event_payload, p_event_created_at, p_delivery_stem, p_delivery_prefix) THEN
    RETURN 'queued';
  END IF;
  RETURN 'applied';
END
$$;
