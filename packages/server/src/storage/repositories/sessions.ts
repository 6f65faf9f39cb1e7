import type { Queryable } from '../db.ts';

/**
 * The sign-in sessions of the two kinds of accounts (the dashboard's users, the operator's
 * console's operators): the same columns in two tables, read and written here once.
 */
export interface SessionRow {
  id_hash: string;
  user_id: string;
  csrf_token: string;
  expires_at: Date;
  created_at: Date;
}

/** Where one kind of account keeps its sessions and its users. */
export interface SessionTables {
  sessions: 'dashboard_sessions' | 'operator_sessions';
  users: 'dashboard_users' | 'operator_users';
  /** The user columns read with a session. */
  userColumns: readonly string[];
  /** The column that, when set, ends every session of the user (removed, disabled). */
  userGone: 'removed_at' | 'disabled_at';
}

export async function insertSessionRow(q: Queryable, tables: SessionTables, row: SessionRow): Promise<void> {
  await q.query(
    `INSERT INTO ${tables.sessions} (id_hash, user_id, csrf_token, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)`,
    [row.id_hash, row.user_id, row.csrf_token, row.expires_at, row.created_at],
  );
}

export async function deleteSessionRow(q: Queryable, tables: SessionTables, idHash: string): Promise<void> {
  await q.query(`DELETE FROM ${tables.sessions} WHERE id_hash = $1`, [idHash]);
}

/** The live session with this id hash and its user (still there), or null. */
export async function findLiveSessionRow<User>(
  q: Queryable,
  tables: SessionTables,
  idHash: string,
  now: Date,
): Promise<{ session: SessionRow; user: User } | null> {
  const userColumns = tables.userColumns.map((c) => `u.${c}`).join(', ');
  const { rows } = await q.query<
    {
      s_id_hash: string;
      s_user_id: string;
      s_csrf_token: string;
      s_expires_at: Date;
      s_created_at: Date;
    } & Record<string, unknown>
  >(
    `SELECT s.id_hash AS s_id_hash, s.user_id AS s_user_id, s.csrf_token AS s_csrf_token,
            s.expires_at AS s_expires_at, s.created_at AS s_created_at, ${userColumns}
       FROM ${tables.sessions} s JOIN ${tables.users} u ON u.id = s.user_id
      WHERE s.id_hash = $1 AND s.expires_at > $2 AND u.${tables.userGone} IS NULL`,
    [idHash, now],
  );
  const row = rows[0];
  if (!row) return null;
  const { s_id_hash, s_user_id, s_csrf_token, s_expires_at, s_created_at, ...user } = row;
  return {
    session: {
      id_hash: s_id_hash,
      user_id: s_user_id,
      csrf_token: s_csrf_token,
      expires_at: s_expires_at,
      created_at: s_created_at,
    },
    user: user as User,
  };
}
