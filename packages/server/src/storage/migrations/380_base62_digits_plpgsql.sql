-- base62_digits (migration 040) as a PL/pgSQL loop instead of a SQL function over generate_series
-- and string_agg. A SQL function with a FROM and an aggregate is never inlined: every call parsed
-- and planned its query again, and paygate_insert_event calls it once per delivery, i.e. once per
-- payment. PL/pgSQL keeps its plans for the session and evaluates these simple expressions
-- without the executor. Same digits (base62-digits.test.ts), same NULL for a width below 1, same
-- STRICT and IMMUTABLE. Measured: bench/RESULTS.md, Round 3, helper `pgcpu`.
CREATE OR REPLACE FUNCTION base62_digits(n bigint, width integer) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  digits text := '';
  rest bigint := n;
BEGIN
  IF width < 1 THEN
    RETURN NULL;
  END IF;
  FOR place IN 1..width LOOP
    digits := substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', (rest % 62)::integer + 1, 1)
              || digits;
    rest := rest / 62;
  END LOOP;
  RETURN digits;
END
$$;
