-- The IANA time zone a dashboard user reads times in (`Europe/Madrid`): the exact time shown on
-- hover beside each relative time. Null until known: the page script offers the browser's zone
-- (a cookie) and the first signed-in page keeps it; the settings page changes it.
ALTER TABLE dashboard_users ADD COLUMN IF NOT EXISTS time_zone text
  CHECK (time_zone IS NULL OR (length(time_zone) BETWEEN 1 AND 64));
