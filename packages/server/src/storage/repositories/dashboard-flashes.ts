import type { Queryable } from '../db.ts';

export type FlashKind = 'api_key' | 'recovery_codes';

/** Holds a sealed flash for a session, replacing one of the same kind. */
export async function upsertFlash(
  q: Queryable,
  row: { sessionHash: string; kind: FlashKind; sealed: string; expiresAt: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO dashboard_flashes (session_hash, kind, sealed, expires_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (session_hash, kind) DO UPDATE SET sealed = EXCLUDED.sealed, expires_at = EXCLUDED.expires_at`,
    [row.sessionHash, row.kind, row.sealed, row.expiresAt],
  );
}

/** Deletes the session's flash of `kind` and answers it if it was still live: it is shown once. */
export async function takeFlashRow(
  q: Queryable,
  sessionHash: string,
  kind: FlashKind,
  now: Date,
): Promise<string | null> {
  const { rows } = await q.query<{ sealed: string; expires_at: Date }>(
    'DELETE FROM dashboard_flashes WHERE session_hash = $1 AND kind = $2 RETURNING sealed, expires_at',
    [sessionHash, kind],
  );
  const row = rows[0];
  return row && new Date(row.expires_at).getTime() > now.getTime() ? row.sealed : null;
}
