-- Resource version (issue 31, item 9): each payment intent and refund carries an integer that
-- grows by one with every change of the object, so a webhook receiver keeps the highest version
-- it has seen and drops an older state. Existing rows start at 1.
ALTER TABLE payment_intents ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1);
ALTER TABLE refunds ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1);
