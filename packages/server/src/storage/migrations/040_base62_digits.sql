-- The last `width` base62 digits of a non-negative integer, in the alphabet of domain/ids.ts
-- (0-9, A-Z, a-z). Used where an id is numbered inside a statement: a webhook delivery's id ends in
-- its endpoint's rank among the event's endpoints (storage/repositories/events.ts).
CREATE OR REPLACE FUNCTION base62_digits(n bigint, width integer) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT string_agg(
           substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
                  ((n / power(62, place)::bigint) % 62)::integer + 1, 1),
           '' ORDER BY place DESC)
    FROM generate_series(0, width - 1) AS place
$$;
