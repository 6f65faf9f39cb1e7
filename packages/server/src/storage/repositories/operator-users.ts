import type { Queryable } from '../db.ts';

export interface OperatorUserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: Date;
}

export interface OperatorSessionRow {
  id_hash: string;
  user_id: string;
  csrf_token: string;
  expires_at: Date;
  created_at: Date;
}

/** An operator who may sign in (not disabled), locked for the sign-in's transaction. */
export async function findOperatorByEmail(q: Queryable, email: string): Promise<OperatorUserRow | null> {
  const { rows } = await q.query<OperatorUserRow>(
    'SELECT id, email, password_hash, created_at FROM operator_users WHERE email = $1 AND disabled_at IS NULL',
    [email],
  );
  return rows[0] ?? null;
}

/** Adds an operator; false when the address is taken. */
export async function insertOperator(q: Queryable, row: OperatorUserRow): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO operator_users (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (email) DO NOTHING`,
    [row.id, row.email, row.password_hash, row.created_at],
  );
  return rowCount > 0;
}

export async function insertOperatorSession(q: Queryable, row: OperatorSessionRow): Promise<void> {
  await q.query(
    `INSERT INTO operator_sessions (id_hash, user_id, csrf_token, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [row.id_hash, row.user_id, row.csrf_token, row.expires_at, row.created_at],
  );
}

export async function findLiveOperatorSession(
  q: Queryable,
  idHash: string,
  now: Date,
): Promise<{ session: OperatorSessionRow; user: OperatorUserRow } | null> {
  const { rows } = await q.query<
    OperatorSessionRow & { email: string; password_hash: string; u_created_at: Date }
  >(
    `SELECT s.id_hash, s.user_id, s.csrf_token, s.expires_at, s.created_at, u.email, u.password_hash,
            u.created_at AS u_created_at
       FROM operator_sessions s JOIN operator_users u ON u.id = s.user_id
      WHERE s.id_hash = $1 AND s.expires_at > $2 AND u.disabled_at IS NULL`,
    [idHash, now],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    session: {
      id_hash: row.id_hash,
      user_id: row.user_id,
      csrf_token: row.csrf_token,
      expires_at: row.expires_at,
      created_at: row.created_at,
    },
    user: {
      id: row.user_id,
      email: row.email,
      password_hash: row.password_hash,
      created_at: row.u_created_at,
    },
  };
}

export async function deleteOperatorSession(q: Queryable, idHash: string): Promise<void> {
  await q.query('DELETE FROM operator_sessions WHERE id_hash = $1', [idHash]);
}

export async function insertOperatorAudit(
  q: Queryable,
  entry: { id: string; operatorId: string; action: string; target: string | null; createdAt: Date },
): Promise<void> {
  await q.query(
    'INSERT INTO operator_audit_log (id, operator_id, action, target, created_at) VALUES ($1, $2, $3, $4, $5)',
    [entry.id, entry.operatorId, entry.action, entry.target, entry.createdAt],
  );
}

export async function listOperatorAudit(
  q: Queryable,
  limit: number,
): Promise<{ email: string; action: string; target: string | null; created_at: Date }[]> {
  const { rows } = await q.query<{ email: string; action: string; target: string | null; created_at: Date }>(
    `SELECT u.email, a.action, a.target, a.created_at FROM operator_audit_log a
       JOIN operator_users u ON u.id = a.operator_id ORDER BY a.created_at DESC, a.id DESC LIMIT $1`,
    [limit],
  );
  return rows;
}
