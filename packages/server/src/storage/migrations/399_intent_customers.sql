-- A payment intent may belong to one of its merchant's customers (issue 44), and may ask that the
-- method it is paid with be saved for that customer (`setup_future_usage`, which create accepts
-- only with a customer). The customer's own rows are never removed (a deleted customer keeps its
-- row), so the reference always resolves. The previous release writes neither column.
ALTER TABLE payment_intents ADD COLUMN customer_id text REFERENCES customers (id);
ALTER TABLE payment_intents ADD COLUMN setup_future_usage text
  CHECK (setup_future_usage IN ('off_session'));
