import { type KeysetSide, keysetWhere, positionAt } from '../../domain/keyset.ts';
import type { ListPosition } from '../../domain/list-cursor.ts';
import type { Queryable } from '../db.ts';
import {
  deleteSessionRow,
  findLiveSessionRow,
  insertSessionRow,
  type SessionRow,
  type SessionTables,
} from './sessions.ts';

export interface OperatorUserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: Date;
}

export type OperatorSessionRow = SessionRow;

const SESSIONS: SessionTables = {
  sessions: 'operator_sessions',
  users: 'operator_users',
  userColumns: ['id', 'email', 'password_hash', 'created_at'],
  userGone: 'disabled_at',
};

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

export function insertOperatorSession(q: Queryable, row: SessionRow): Promise<void> {
  return insertSessionRow(q, SESSIONS, row);
}

/** The live session with this id hash and its operator (not disabled). */
export function findLiveOperatorSession(
  q: Queryable,
  idHash: string,
  now: Date,
): Promise<{ session: SessionRow; user: OperatorUserRow } | null> {
  return findLiveSessionRow<OperatorUserRow>(q, SESSIONS, idHash, now);
}

export function deleteOperatorSession(q: Queryable, idHash: string): Promise<void> {
  return deleteSessionRow(q, SESSIONS, idHash);
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

export interface OperatorAuditEntry {
  id: string;
  email: string;
  action: string;
  target: string | null;
  created_at: Date;
}

export interface OperatorAuditFilters {
  limit: number;
  /** Where the page starts (keyset on (created_at, id), domain/keyset.ts); null: the newest. */
  side: KeysetSide<ListPosition>;
  action?: string | undefined;
  operatorEmail?: string | undefined;
  createdGte?: Date | undefined;
  createdLt?: Date | undefined;
}

/**
 * The operators' audit lines, filtered, read from `filters.side` (older rows newest first, newer
 * rows oldest first), `limit` at most, each with its position (indexes: migrations 342, 343).
 */
export async function listOperatorAudit(
  q: Queryable,
  filters: OperatorAuditFilters,
): Promise<{ entry: OperatorAuditEntry; position: ListPosition }[]> {
  const where: string[] = [];
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filters.action) where.push(`a.action = ${param(filters.action)}`);
  if (filters.operatorEmail) where.push(`u.email = ${param(filters.operatorEmail)}`);
  if (filters.createdGte) where.push(`a.created_at >= ${param(filters.createdGte)}`);
  if (filters.createdLt) where.push(`a.created_at < ${param(filters.createdLt)}`);
  const keyset = keysetWhere(filters.side, { createdAt: 'a.created_at', id: 'a.id' }, param);
  if (keyset.where) where.push(keyset.where);
  const { rows } = await q.query<OperatorAuditEntry & { position_at: string }>(
    `SELECT a.id, u.email, a.action, a.target, a.created_at, ${positionAt('a.created_at')}
       FROM operator_audit_log a JOIN operator_users u ON u.id = a.operator_id
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${keyset.order} LIMIT ${param(filters.limit)}`,
    values,
  );
  return rows.map(({ position_at, ...entry }) => ({
    entry,
    position: { createdAt: position_at, id: entry.id },
  }));
}
