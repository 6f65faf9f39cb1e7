import type { Queryable } from '../db.ts';

/**
 * Locks up to `limit` intents that are CREATED or REQUIRES_ACTION and past `expires_at`, for one
 * expiry worker (SKIP LOCKED: other workers, and a confirm holding the row, are passed by). An
 * intent whose charge is being sent right now is left for a later run: its answer decides first.
 */
export async function claimExpiredIntentIds(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT pi.id FROM payment_intents pi
      WHERE pi.status IN ('CREATED', 'REQUIRES_ACTION') AND pi.expires_at <= $1
        AND NOT EXISTS (SELECT 1 FROM charge_attempts a
                         WHERE a.payment_intent_id = pi.id AND a.status IN ('CHARGING', 'DELAYED'))
      ORDER BY pi.expires_at
      LIMIT $2
      FOR UPDATE OF pi SKIP LOCKED`,
    [now, limit],
  );
  return rows.map((row) => row.id);
}
