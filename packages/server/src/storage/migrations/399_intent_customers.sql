-- A payment intent may belong to one of its merchant's customers (issue 44), and may ask that the
-- method it is paid with be saved for that customer (`setup_future_usage`). The customer's own
-- rows are never removed (a deleted customer keeps its row), so the reference always resolves.
ALTER TABLE payment_intents ADD COLUMN customer_id text REFERENCES customers (id);
ALTER TABLE payment_intents ADD COLUMN setup_future_usage text
  CHECK (setup_future_usage IN ('off_session'));
ALTER TABLE payment_intents ADD CONSTRAINT payment_intents_saving_needs_customer
  CHECK (setup_future_usage IS NULL OR customer_id IS NOT NULL);
-- A customer's payments, newest first: an index scan however many intents the merchant has.
CREATE INDEX payment_intents_of_customer ON payment_intents (customer_id, created_at DESC, id DESC)
  WHERE customer_id IS NOT NULL;
