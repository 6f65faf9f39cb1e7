-- A rolled key may keep working for a while so that its holder can deploy the new one: it stops
-- at expires_at (null: no end). Revocation (revoked_at) still ends a key at once.
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
