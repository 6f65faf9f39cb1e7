-- A merchant can be disabled by the operator: its API keys are refused, its data is kept.
ALTER TABLE merchants ADD COLUMN disabled_at timestamptz;
