-- How many times reconciliation sent a PENDING refund's request again after its gateway's books
-- showed no refund made with its key (issue 31): the back-off grows with it, and past a bound the
-- refund is FAILED and its amount released. Existing rows start at 0.
ALTER TABLE refunds ADD COLUMN resends integer NOT NULL DEFAULT 0 CHECK (resends >= 0);
