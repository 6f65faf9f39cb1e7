-- Opaque data a connector asks to keep beside the gateway's reference of a charge or a refund
-- (for example what its completion step needs after a redirect), handed back to it on
-- completion, reconciliation and refund. At most 4096 characters; never shown to anyone.
ALTER TABLE charge_attempts ADD COLUMN connector_data text;
ALTER TABLE refunds ADD COLUMN connector_data text;
