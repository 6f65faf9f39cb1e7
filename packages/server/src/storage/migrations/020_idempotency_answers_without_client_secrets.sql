-- Stored idempotent answers no longer hold client secrets (they are derived from the intent id and
-- the master key, and a replay derives them again). Answers stored before this release are cut the
-- same way: `"client_secret":"pi_…_secret_<24>"` becomes `"client_secret":"pi_…_secret_"`.
UPDATE idempotency_keys
   SET response_body = regexp_replace(
         response_body,
         '"client_secret":"(pi_[0-9A-Za-z]{24})_secret_[0-9A-Za-z]{24}"',
         '"client_secret":"\1_secret_"',
         'g')
 WHERE response_body LIKE '%"client\_secret":"pi\_%';
