-- A capture's first and last phase each in ONE statement (issue 43, item 7), as a confirm's are
-- (migrations 260 and 261): the Idempotency-Key's checks, its lock and its stored answer travel
-- with the phase's own writes instead of a transaction of twelve round trips. Called by
-- startCaptureInOneStatement and finishCaptureInOneStatement
-- (storage/repositories/authorization-operations.ts); docs/decisions/payment-sql-functions.md.
--
-- Both functions only take the common case, and take it only when it is certain; anything else
-- writes nothing and answers 'slow', and the application takes the general path
-- (app/idempotent-phases.ts, runInPhases), which decides, refuses and stores every other case as
-- before. So the function decides nothing the domain has not: what it checks is a subset of what
-- captureAmountFor (domain/capture.ts) accepts, and each check it cannot make certain is 'slow'.

-- Phase 1 of a new key: no answer is stored under it, its lock is free, no operation of this key
-- exists, the intent is a manual REQUIRES_CAPTURE one whose authorisation has not lapsed, the
-- amount (p_requested, or all of it when null) is at most what it authorised, and its authorised
-- charge is on record. Then the capture is written PENDING with the gateway key derived from the
-- charge's key and the operation's number (startAuthorizationOperation's rule), its lease until
-- p_lease_until: 'started', with the intent as locked, the operation and the charge it acts on.
CREATE OR REPLACE FUNCTION paygate_capture_start(
  p_merchant_id text,
  p_livemode boolean,
  p_request_key text,
  p_request_hash text,
  p_lock_id bigint,
  p_now timestamptz,
  p_intent_id text,
  p_requested bigint,
  p_operation_id text,
  p_lease_until timestamptz
) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  intent payment_intents;
  charge charge_attempts;
  amount bigint;
  operation authorization_operations;
BEGIN
  IF EXISTS (SELECT 1 FROM idempotency_keys
              WHERE merchant_id = p_merchant_id AND livemode = p_livemode
                AND idempotency_key = p_request_key AND expires_at > p_now) THEN
    RETURN jsonb_build_object('outcome', 'slow');
  END IF;
  -- Held until this statement's commit, as the general path holds it for its first transaction.
  IF NOT pg_try_advisory_xact_lock(p_lock_id) THEN
    RETURN jsonb_build_object('outcome', 'slow');
  END IF;
  SELECT * INTO intent FROM payment_intents
   WHERE id = p_intent_id AND merchant_id = p_merchant_id AND livemode = p_livemode
     FOR UPDATE;
  IF NOT FOUND
     OR intent.capture_method <> 'manual'
     OR intent.status <> 'REQUIRES_CAPTURE'
     OR (intent.capture_before IS NOT NULL AND intent.capture_before <= p_now) THEN
    RETURN jsonb_build_object('outcome', 'slow');
  END IF;
  amount := coalesce(p_requested, intent.amount_minor);
  IF amount < 1 OR amount > intent.amount_minor THEN
    RETURN jsonb_build_object('outcome', 'slow');
  END IF;
  IF EXISTS (SELECT 1 FROM authorization_operations
              WHERE payment_intent_id = intent.id AND request_key = p_request_key) THEN
    RETURN jsonb_build_object('outcome', 'slow');
  END IF;
  SELECT * INTO charge FROM charge_attempts
   WHERE payment_intent_id = intent.id AND status = 'SUCCEEDED'
   ORDER BY attempt_number LIMIT 1;
  IF NOT FOUND OR charge.gateway_reference IS NULL THEN
    RETURN jsonb_build_object('outcome', 'slow');
  END IF;

  INSERT INTO authorization_operations (id, merchant_id, livemode, payment_intent_id, kind, amount_minor,
                                        currency, gateway_id, gateway_idempotency_key, status,
                                        gateway_reference, failure_message, request_key, request_hash,
                                        next_sync_at, tries, created_at, updated_at)
  SELECT p_operation_id, intent.merchant_id, intent.livemode, intent.id, 'capture', amount,
         intent.currency, intent.gateway_id, charge.idempotency_key || ':capture:' || (done.n + 1), 'PENDING',
         NULL, NULL, p_request_key, p_request_hash, p_lease_until, 0, p_now, p_now
    FROM (SELECT count(*)::int AS n FROM authorization_operations WHERE payment_intent_id = intent.id) AS done
  ON CONFLICT (payment_intent_id) WHERE status = 'PENDING' DO NOTHING
  RETURNING * INTO operation;
  IF NOT FOUND THEN
    -- A capture or void in flight: the general path answers its 409 and stores it.
    RETURN jsonb_build_object('outcome', 'slow');
  END IF;

  RETURN jsonb_build_object(
    'outcome', 'started',
    'intent', to_jsonb(intent),
    'operation', to_jsonb(operation),
    'charge_reference', charge.gateway_reference,
    'charge_connector_data', charge.connector_data);
END
$$;

-- Phase 3 of a capture the gateway made: the intent's step with its captured amount and the
-- PAYMENT transaction APPROVED for it (paygate_apply_payment_change's 34 arguments, passed as
-- applyPaymentChange builds them, every write guarded by the state the step was decided on), the
-- operation SUCCEEDED (guarded by PENDING) and the answer stored under the key, all or nothing. The
-- intent is written first, the operation second: the order in which every writer of both locks
-- them. When either was no longer as read (a notification or the repair job settled the operation,
-- the intent moved on), the statement raises PGCAP, which undoes it whole, and the application
-- finishes in the general path. Returns paygate_apply_payment_change's answer ('queued' when a
-- delivery was queued).
CREATE OR REPLACE FUNCTION paygate_capture_finish(
  p_operation_id text,
  p_operation_reference text,
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
  p_payment_amount bigint,
  p_key_merchant_id text,
  p_key_livemode boolean,
  p_request_key text,
  p_request_method text,
  p_request_path text,
  p_request_hash text,
  p_response_status integer,
  p_response_body text,
  p_expires_at timestamptz
) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  applied text;
BEGIN
  IF p_intent_from IS NULL THEN
    RAISE EXCEPTION 'a capture''s outcome writes its intent' USING ERRCODE = 'PGCAP';
  END IF;
  applied := paygate_apply_payment_change(
    p_intent_id, p_now, p_intent_from, p_intent_version, p_intent_to, p_redirect_url, p_cancellation_reason,
    p_error_code, p_error_decline_code, p_error_gateway_code, p_error_message, p_attempt_number, p_attempt_from,
    p_attempt_checks, p_attempt_to, p_gateway_reference, p_failure_code, p_next_check_at, p_checked,
    p_connector_data, p_payment_transaction, p_event_id, p_merchant_id, p_livemode, p_event_type, p_object_id,
    p_event_payload, p_event_created_at, p_delivery_stem, p_delivery_prefix, p_capture_write, p_capture_before,
    p_amount_captured, p_payment_amount);
  IF applied = 'stale' THEN
    RAISE EXCEPTION 'payment intent % is no longer % at version %', p_intent_id, p_intent_from, p_intent_version
      USING ERRCODE = 'PGCAP';
  END IF;
  UPDATE authorization_operations
     SET status = 'SUCCEEDED', gateway_reference = COALESCE(p_operation_reference, gateway_reference),
         failure_message = NULL, next_sync_at = NULL, updated_at = p_now
   WHERE id = p_operation_id AND status = 'PENDING';
  IF NOT FOUND THEN
    RAISE EXCEPTION 'authorization operation % is no longer PENDING', p_operation_id USING ERRCODE = 'PGCAP';
  END IF;
  -- storeResponse's statement (storage/repositories/idempotency-keys.ts): an expired row of the
  -- same key is replaced.
  INSERT INTO idempotency_keys AS stored (merchant_id, livemode, idempotency_key, request_method, request_path,
                                          request_hash, response_status, response_body, created_at, expires_at)
  VALUES (p_key_merchant_id, p_key_livemode, p_request_key, p_request_method, p_request_path, p_request_hash,
          p_response_status, p_response_body, p_now, p_expires_at)
  ON CONFLICT (merchant_id, livemode, idempotency_key) DO UPDATE
     SET request_method = EXCLUDED.request_method, request_path = EXCLUDED.request_path,
         request_hash = EXCLUDED.request_hash, response_status = EXCLUDED.response_status,
         response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at,
         expires_at = EXCLUDED.expires_at
   WHERE stored.expires_at <= EXCLUDED.created_at;
  RETURN applied;
END
$$;
