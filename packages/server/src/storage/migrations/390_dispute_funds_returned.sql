-- A dispute whose amount the gateway gave back and has not taken again (domain/dispute.ts
-- fundsReturned). Adyen reverses a chargeback before the dispute is final (CHARGEBACK_REVERSED
-- with disputeStatus Pending), so "not held" no longer tells a dispute that never withdrew from one
-- whose withdrawal was returned; only the second may be taken again by a SECOND_CHARGEBACK. Every
-- dispute closed WON before this migration was reversed; the others held or never withdrew.
ALTER TABLE disputes ADD COLUMN funds_returned boolean NOT NULL DEFAULT false;
UPDATE disputes SET funds_returned = true WHERE status = 'WON' AND NOT funds_held
  AND EXISTS (SELECT 1 FROM transactions t WHERE t.dispute_id = disputes.id AND t.type = 'DISPUTE_REVERSAL');
