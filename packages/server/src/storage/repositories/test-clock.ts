import type { Queryable } from '../db.ts';

/** The row of `settings` that holds the test clock's offset from real time, in milliseconds. */
const OFFSET_SETTING = 'test_clock_offset_ms';
/** Every process listens here; the payload is the new offset. */
export const TEST_CLOCK_CHANNEL = 'paygate_test_clock';

export async function readTestClockOffsetMs(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [
    OFFSET_SETTING,
  ]);
  const value = rows[0] ? Number(rows[0].value) : 0;
  return Number.isSafeInteger(value) ? value : 0;
}

/** Adds to the stored offset (atomically, whoever else advances at the same time) and announces it. */
export async function addTestClockOffsetMs(q: Queryable, deltaMs: number): Promise<number> {
  const { rows } = await q.query<{ value: string }>(
    `INSERT INTO settings (name, value) VALUES ($1, $2::bigint::text)
     ON CONFLICT (name) DO UPDATE SET value = (settings.value::bigint + $2::bigint)::text
     RETURNING value`,
    [OFFSET_SETTING, deltaMs],
  );
  const offsetMs = Number(rows[0]?.value ?? 0);
  await q.query('SELECT pg_notify($1, $2)', [TEST_CLOCK_CHANNEL, String(offsetMs)]);
  return offsetMs;
}
