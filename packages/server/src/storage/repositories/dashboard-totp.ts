import type { Queryable } from '../db.ts';

export interface TotpState {
  secret_sealed: string | null;
  enabled_at: Date | null;
  last_step: number | null;
}

/** The user's second-factor state, locked for the rest of the transaction (one code, one use). */
export async function lockTotpState(q: Queryable, userId: string): Promise<TotpState | null> {
  const { rows } = await q.query<TotpState>(
    'SELECT secret_sealed, enabled_at, last_step FROM dashboard_totp WHERE user_id = $1 FOR UPDATE',
    [userId],
  );
  return rows[0] ?? null;
}

/** Writes the state; a null secret removes it (second factor off). */
export async function saveTotpState(q: Queryable, userId: string, state: TotpState): Promise<void> {
  if (state.secret_sealed === null) {
    await q.query('DELETE FROM dashboard_totp WHERE user_id = $1', [userId]);
    return;
  }
  await q.query(
    `INSERT INTO dashboard_totp (user_id, secret_sealed, enabled_at, last_step) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE
       SET secret_sealed = EXCLUDED.secret_sealed, enabled_at = EXCLUDED.enabled_at, last_step = EXCLUDED.last_step`,
    [userId, state.secret_sealed, state.enabled_at, state.last_step],
  );
}

export async function replaceRecoveryCodes(
  q: Queryable,
  userId: string,
  codeHashes: string[],
): Promise<void> {
  await q.query('DELETE FROM dashboard_recovery_codes WHERE user_id = $1', [userId]);
  for (const hash of codeHashes) {
    await q.query('INSERT INTO dashboard_recovery_codes (user_id, code_hash) VALUES ($1, $2)', [
      userId,
      hash,
    ]);
  }
}

/** Marks an unused recovery code used; false when there is no such unused code. */
export async function useRecoveryCode(
  q: Queryable,
  userId: string,
  codeHash: string,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE dashboard_recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL',
    [userId, codeHash, at],
  );
  return rowCount === 1;
}
