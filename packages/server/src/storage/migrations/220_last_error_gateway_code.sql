-- The gateway's own code for the last decline (Stripe's decline_code or error code, Adyen's
-- refusalReasonCode or refusal reason), unchanged, shown as last_payment_error.gateway_code beside
-- the mapped decline_code. Additive: existing intents have none (null).
ALTER TABLE payment_intents
  ADD COLUMN last_error_gateway_code text;
