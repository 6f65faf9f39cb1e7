import type { DashboardRole } from '../../domain/dashboard-roles.ts';
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

export interface DashboardUserRow {
  id: string;
  merchant_id: string;
  email: string;
  role: DashboardRole;
  password_hash: string;
  created_at: Date;
  /** The language the user last worked in; read with a session only (null: not known yet). */
  language?: 'en' | 'es' | null;
  /** The IANA time zone the user reads times in; read with a session only (null: not known yet). */
  time_zone?: string | null;
}

const USER_COLUMNS = 'id, merchant_id, email, role, password_hash, created_at';

export async function findUserByEmail(q: Queryable, email: string): Promise<DashboardUserRow | null> {
  const { rows } = await q.query<DashboardUserRow>(
    `SELECT ${USER_COLUMNS} FROM dashboard_users WHERE email = $1 AND removed_at IS NULL FOR UPDATE`,
    [email],
  );
  return rows[0] ?? null;
}

export async function insertUser(q: Queryable, row: DashboardUserRow): Promise<void> {
  await q.query(`INSERT INTO dashboard_users (${USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
    row.id,
    row.merchant_id,
    row.email,
    row.role,
    row.password_hash,
    row.created_at,
  ]);
}

export async function listUsersOfMerchant(
  q: Queryable,
  merchantId: string,
): Promise<Pick<DashboardUserRow, 'id' | 'email' | 'role' | 'created_at'>[]> {
  const { rows } = await q.query<Pick<DashboardUserRow, 'id' | 'email' | 'role' | 'created_at'>>(
    `SELECT id, email, role, created_at FROM dashboard_users
      WHERE merchant_id = $1 AND removed_at IS NULL ORDER BY created_at, id`,
    [merchantId],
  );
  return rows;
}

export interface InvitationRow {
  token_hash: string;
  merchant_id: string;
  email: string;
  role: DashboardRole;
  invited_by: string | null;
  expires_at: Date;
  accepted_at: Date | null;
  created_at: Date;
}

export async function insertInvitation(q: Queryable, row: InvitationRow): Promise<void> {
  await q.query(
    `INSERT INTO dashboard_invitations
       (token_hash, merchant_id, email, role, invited_by, expires_at, accepted_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      row.token_hash,
      row.merchant_id,
      row.email,
      row.role,
      row.invited_by,
      row.expires_at,
      row.accepted_at,
      row.created_at,
    ],
  );
}

/** Locks the invitation, so that two acceptances of one token cannot both create a user. */
export async function findInvitationForUpdate(
  q: Queryable,
  tokenHash: string,
): Promise<InvitationRow | null> {
  const { rows } = await q.query<InvitationRow>(
    `SELECT token_hash, merchant_id, email, role, invited_by, expires_at, accepted_at, created_at
       FROM dashboard_invitations WHERE token_hash = $1 FOR UPDATE`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function markInvitationAccepted(q: Queryable, tokenHash: string, at: Date): Promise<void> {
  await q.query('UPDATE dashboard_invitations SET accepted_at = $2 WHERE token_hash = $1', [tokenHash, at]);
}

export type { SessionRow };

const SESSIONS: SessionTables = {
  sessions: 'dashboard_sessions',
  users: 'dashboard_users',
  userColumns: ['id', 'merchant_id', 'email', 'role', 'password_hash', 'created_at', 'language', 'time_zone'],
  userGone: 'removed_at',
};

export function insertSession(q: Queryable, row: SessionRow): Promise<void> {
  return insertSessionRow(q, SESSIONS, row);
}

/** The live session with this id hash and its user. */
export function findLiveSession(
  q: Queryable,
  idHash: string,
  now: Date,
): Promise<{ session: SessionRow; user: DashboardUserRow } | null> {
  return findLiveSessionRow<DashboardUserRow>(q, SESSIONS, idHash, now);
}

export function deleteSession(q: Queryable, idHash: string): Promise<void> {
  return deleteSessionRow(q, SESSIONS, idHash);
}

export async function deleteSessionsOfUser(q: Queryable, userId: string): Promise<number> {
  return (await q.query('DELETE FROM dashboard_sessions WHERE user_id = $1', [userId])).rowCount;
}

export interface AuditEntryRow {
  id: string;
  merchant_id: string;
  user_id: string | null;
  action: string;
  target: string | null;
  livemode: boolean | null;
  created_at: Date;
}

export async function insertAuditEntry(q: Queryable, row: AuditEntryRow): Promise<void> {
  await q.query(
    `INSERT INTO dashboard_audit_log (id, merchant_id, user_id, action, target, livemode, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row.id, row.merchant_id, row.user_id, row.action, row.target, row.livemode, row.created_at],
  );
}

export interface AuditFilters {
  limit: number;
  /** Where the page starts (keyset on (created_at, id), domain/keyset.ts); null: the newest. */
  side: KeysetSide<ListPosition>;
  action?: string | undefined;
  userEmail?: string | undefined;
  createdGte?: Date | undefined;
  createdLt?: Date | undefined;
}

/**
 * The merchant's audit entries, filtered, read from `filters.side` (older rows newest first,
 * newer rows oldest first), `limit` rows at most, each with its position. The user filter is
 * the user's id (indexed with the merchant, migration 341), the action's too (340).
 */
export async function listAuditEntries(
  q: Queryable,
  merchantId: string,
  filters: AuditFilters,
): Promise<{ entry: AuditEntryRow & { user_email: string | null }; position: ListPosition }[]> {
  const where = ['a.merchant_id = $1'];
  const values: unknown[] = [merchantId];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filters.action) where.push(`a.action = ${param(filters.action)}`);
  if (filters.userEmail) {
    where.push(
      `a.user_id IN (SELECT id FROM dashboard_users WHERE merchant_id = $1 AND email = ${param(filters.userEmail)})`,
    );
  }
  if (filters.createdGte) where.push(`a.created_at >= ${param(filters.createdGte)}`);
  if (filters.createdLt) where.push(`a.created_at < ${param(filters.createdLt)}`);
  const keyset = keysetWhere(filters.side, { createdAt: 'a.created_at', id: 'a.id' }, param);
  if (keyset.where) where.push(keyset.where);
  const { rows } = await q.query<AuditEntryRow & { user_email: string | null; position_at: string }>(
    `SELECT a.id, a.merchant_id, a.user_id, a.action, a.target, a.livemode, a.created_at, u.email AS user_email,
            ${positionAt('a.created_at')}
       FROM dashboard_audit_log a LEFT JOIN dashboard_users u ON u.id = a.user_id
      WHERE ${where.join(' AND ')} ORDER BY ${keyset.order} LIMIT ${param(filters.limit)}`,
    values,
  );
  return rows.map(({ position_at, ...entry }) => ({
    entry,
    position: { createdAt: position_at, id: entry.id },
  }));
}

/** Remembers the language a user works in (their mail is written in it). */
export async function setUserTimeZone(q: Queryable, userId: string, timeZone: string): Promise<void> {
  await q.query('UPDATE dashboard_users SET time_zone = $2 WHERE id = $1', [userId, timeZone]);
}

export async function setUserLanguage(q: Queryable, userId: string, language: 'en' | 'es'): Promise<void> {
  await q.query('UPDATE dashboard_users SET language = $2 WHERE id = $1', [userId, language]);
}
