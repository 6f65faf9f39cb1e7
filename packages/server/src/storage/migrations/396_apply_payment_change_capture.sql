-- Capture later in the one statement of a payment's step (issue 43): paygate_apply_payment_change
-- (migration 261) learns a manual intent's capture columns (p_capture_write: capture_before and
-- amount_captured_minor set as given, on the very step it writes, guarded like the step) and the
-- amount of the PAYMENT transaction it settles (p_payment_amount: what a capture took). A manual
-- confirm's authorisation and a capture's outcome then need no statement of their own beside it.
-- This is an overload with four more arguments: the 30-argument function stays, for processes of
-- the release before this one during a rolling upgrade (docs/operations.md, "Upgrades").

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
  p_delivery_prefix text,
  p_capture_write boolean,
  p_capture_before timestamptz,
  p_amount_captured bigint,
  p_payment_amount bigint
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
           last_error_gateway_code = CASE WHEN p_error_code IS NULL THEN last_error_gateway_code ELSE p_error_gateway_code END,
           capture_before = CASE WHEN p_capture_write THEN p_capture_before ELSE capture_before END,
           amount_captured_minor = CASE WHEN p_capture_write THEN p_amount_captured ELSE amount_captured_minor END
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
    UPDATE transactions
       SET status = p_payment_transaction, amount_minor = COALESCE(p_payment_amount, amount_minor), updated_at = p_now
     WHERE payment_intent_id = p_intent_id AND type = 'PAYMENT' AND status = 'PENDING';
  END IF;
  IF p_event_id IS NOT NULL AND paygate_insert_event(p_event_id, p_merchant_id, p_livemode, p_event_type,
       p_object_id, p_event_payload, p_event_created_at, p_delivery_stem, p_delivery_prefix) THEN
    RETURN 'queued';
  END IF;
  RETURN 'applied';
END
$$;
