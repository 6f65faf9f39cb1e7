-- What \df+ and a reader of the catalogue see of paygate_confirm_start: migration 260's header
-- says startConfirm is in storage/repositories/payment-intents.ts; it is in charge-attempts.ts.
-- An applied migration is checksummed byte for byte (storage/migrate.ts), so 260 keeps its text
-- and the correction is here, beside the function. Its open-attempt statuses are the index's
-- (charge_attempts_one_open, migration 003): test/open-attempt-statuses.test.ts holds every
-- spelling of them in the database equal to openAttemptStatuses (charge-attempts.ts).
COMMENT ON FUNCTION paygate_confirm_start(text, text, boolean, text[], timestamptz, integer, text[], text[], text, text, timestamptz, text) IS
  'The first phase of a confirm in one statement (migration 260); called by startConfirm in storage/repositories/charge-attempts.ts. Its open-attempt statuses are those of the index charge_attempts_one_open.';
