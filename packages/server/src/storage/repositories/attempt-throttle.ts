import type { ThrottleState } from '../../domain/attempt-throttle.ts';
import type { Queryable } from '../db.ts';

/**
 * The subject's throttle row, created when missing and locked for the rest of the transaction:
 * concurrent attempts at one subject, from any process, take their turn here.
 */
export async function lockThrottle(q: Queryable, subject: string, now: Date): Promise<ThrottleState> {
  await q.query(
    `INSERT INTO dashboard_attempt_throttle (subject, failures, blocked_until, updated_at)
     VALUES ($1, 0, NULL, $2) ON CONFLICT (subject) DO NOTHING`,
    [subject, now],
  );
  const { rows } = await q.query<{ failures: number; blocked_until: Date | null; updated_at: Date }>(
    'SELECT failures, blocked_until, updated_at FROM dashboard_attempt_throttle WHERE subject = $1 FOR UPDATE',
    [subject],
  );
  const row = rows[0];
  if (!row) throw new Error(`throttle row ${subject} vanished inside its transaction`);
  return { failures: row.failures, blockedUntil: row.blocked_until, updatedAt: row.updated_at };
}

export async function saveThrottle(q: Queryable, subject: string, state: ThrottleState): Promise<void> {
  await q.query(
    'UPDATE dashboard_attempt_throttle SET failures = $2, blocked_until = $3, updated_at = $4 WHERE subject = $1',
    [subject, state.failures, state.blockedUntil, state.updatedAt],
  );
}

export async function clearThrottle(q: Queryable, subject: string): Promise<void> {
  await q.query('DELETE FROM dashboard_attempt_throttle WHERE subject = $1', [subject]);
}

/**
 * Deletes up to 100 counts untouched since `before` and no longer blocking. Rows another attempt
 * holds are skipped, so this never waits and never deadlocks with the attempts themselves.
 */
export async function forgetOldThrottles(q: Queryable, before: Date, now: Date): Promise<void> {
  await q.query(
    `DELETE FROM dashboard_attempt_throttle WHERE subject IN (
       SELECT subject FROM dashboard_attempt_throttle
        WHERE updated_at < $1 AND (blocked_until IS NULL OR blocked_until <= $2)
        LIMIT 100 FOR UPDATE SKIP LOCKED)`,
    [before, now],
  );
}
