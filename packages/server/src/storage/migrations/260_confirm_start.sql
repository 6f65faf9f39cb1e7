-- The first phase of a confirm in ONE statement (one round trip, its own commit): lock the intent,
-- check it may be confirmed, check its gateway, record the attempt (the open-attempt index refuses
-- a second one) and the PENDING PAYMENT transaction. Called by startConfirm
-- (storage/repositories/payment-intents.ts); docs/decisions/payment-sql-functions.md.
--
-- The function decides nothing of its own: the application passes what the domain decided (the
-- statuses from which an intent may be confirmed, which gateways take the payment's token, the
-- attempt's status and next check) and the function applies it under the intent's row lock, or
-- writes nothing and reports what it found, so that the application answers as before:
--   not_found        no such intent for this merchant and mode (404);
--   refused          its status is not one of p_confirmable (`status`: the domain's 409);
--   slow             expired, or a delayed test charge (the amount-ending rule): the application
--                    takes its transactional path, which decides and writes those cases;
--   refused_gateway  its gateway takes no new payment with this token (`gateway_id`, and
--                    `account`: the merchant's account of that gateway_id or null;
--                    `open_attempt`: a confirm is in flight);
--   attempt_open     the open-attempt index refused the attempt: a confirm is in flight (409);
--   started          written; `intent` as locked, `attempt` as inserted, `account` as read.
-- Rows travel as jsonb (to_jsonb of the table's row type), so the column lists stay the tables'.
CREATE OR REPLACE FUNCTION paygate_confirm_start(
  p_intent_id text,
  p_merchant_id text,
  p_livemode boolean,
  p_confirmable text[],
  p_now timestamptz,
  p_delayed_ending integer,
  p_process_gateways text[],
  p_account_connectors text[],
  p_token text,
  p_attempt_status text,
  p_next_check_at timestamptz,
  p_transaction_id text
) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  intent payment_intents;
  account gateway_accounts;
  has_account boolean;
  attempt charge_attempts;
BEGIN
  SELECT * INTO intent FROM payment_intents
   WHERE id = p_intent_id AND merchant_id = p_merchant_id AND livemode = p_livemode
     FOR UPDATE;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('outcome', 'not_found');
  END IF;
  IF NOT (intent.status = ANY (p_confirmable)) THEN
    RETURN jsonb_build_object('outcome', 'refused', 'status', intent.status);
  END IF;
  IF intent.expires_at <= p_now OR (NOT intent.livemode AND intent.amount_minor % 100 = p_delayed_ending) THEN
    RETURN jsonb_build_object('outcome', 'slow');
  END IF;

  -- The merchant's own account of the gateway_id hides the process's gateway of that id.
  SELECT * INTO account FROM gateway_accounts
   WHERE merchant_id = intent.merchant_id AND livemode = intent.livemode AND gateway_id = intent.gateway_id;
  has_account := FOUND;
  IF (has_account AND (account.status <> 'enabled' OR NOT (account.connector = ANY (p_account_connectors))))
     OR (NOT has_account AND NOT (intent.gateway_id = ANY (p_process_gateways))) THEN
    RETURN jsonb_build_object(
      'outcome', 'refused_gateway',
      'gateway_id', intent.gateway_id,
      'account', CASE WHEN has_account THEN to_jsonb(account) END,
      'open_attempt', EXISTS (SELECT 1 FROM charge_attempts
                               WHERE payment_intent_id = intent.id
                                 AND status IN ('CHARGING', 'DELAYED', 'REQUIRES_ACTION', 'PROCESSING')));
  END IF;

  -- Numbered after the last attempt (the intent's lock keeps others from numbering meanwhile); the
  -- idempotency key is attemptIdempotencyKey's (storage/repositories/charge-attempts.ts).
  INSERT INTO charge_attempts (payment_intent_id, attempt_number, merchant_id, livemode, gateway_id,
                               idempotency_key, payment_method_token, status, gateway_reference,
                               connector_data, failure_code, next_check_at, checks, created_at, updated_at)
  SELECT intent.id, next.n, intent.merchant_id, intent.livemode, intent.gateway_id,
         intent.id || ':attempt:' || next.n, p_token, p_attempt_status, NULL,
         NULL, NULL, p_next_check_at, 0, p_now, p_now
    FROM (SELECT coalesce(max(attempt_number), 0) + 1 AS n FROM charge_attempts
           WHERE payment_intent_id = intent.id) AS next
  ON CONFLICT (payment_intent_id) WHERE status IN ('CHARGING', 'DELAYED', 'REQUIRES_ACTION', 'PROCESSING')
  DO NOTHING
  RETURNING * INTO attempt;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('outcome', 'attempt_open');
  END IF;

  INSERT INTO transactions (id, merchant_id, livemode, type, status, amount_minor, currency,
                            payment_intent_id, refund_id, gateway_id, created_at, updated_at)
  VALUES (p_transaction_id, intent.merchant_id, intent.livemode, 'PAYMENT', 'PENDING', intent.amount_minor,
          intent.currency, intent.id, NULL, intent.gateway_id, p_now, p_now);

  RETURN jsonb_build_object(
    'outcome', 'started',
    'intent', to_jsonb(intent),
    'attempt', to_jsonb(attempt),
    'account', CASE WHEN has_account THEN to_jsonb(account) END);
END
$$;
