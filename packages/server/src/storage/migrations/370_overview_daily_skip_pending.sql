-- The overview roll-up's insert and delete triggers (migration 250) fire only for rows that count:
-- a PENDING transaction is counted nowhere (overview_daily_add returns at once for it), and every
-- confirm inserts its PAYMENT transaction PENDING (paygate_confirm_start) and a payment that ends
-- without a charge deletes it PENDING (paygate_apply_payment_change). Those calls of the PL/pgSQL
-- trigger function were pure cost on the payment's path; the WHEN clause skips them before any
-- function is called. The update trigger already has its WHEN clause.
DROP TRIGGER transactions_overview_daily_insert ON transactions;
CREATE TRIGGER transactions_overview_daily_insert AFTER INSERT ON transactions
  FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM 'PENDING')
  EXECUTE FUNCTION overview_daily_on_transactions();

DROP TRIGGER transactions_overview_daily_delete ON transactions;
CREATE TRIGGER transactions_overview_daily_delete AFTER DELETE ON transactions
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM 'PENDING')
  EXECUTE FUNCTION overview_daily_on_transactions();
