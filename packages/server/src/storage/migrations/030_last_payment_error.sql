-- Why the last payment attempt of an intent failed, shown on the intent as last_payment_error
-- (code, decline_code, message). Written in the transaction that moves the intent to FAILED, so the
-- payment_intent.failed event carries it too. Additive: existing intents have none.
ALTER TABLE payment_intents
  ADD COLUMN last_error_code text,
  ADD COLUMN last_error_decline_code text,
  ADD COLUMN last_error_message text;
