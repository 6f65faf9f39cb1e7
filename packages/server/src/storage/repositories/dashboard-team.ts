import type { DashboardRole } from '../../domain/dashboard-roles.ts';
import type { Queryable } from '../db.ts';

export interface TeamMemberRow {
  id: string;
  email: string;
  role: DashboardRole;
  created_at: Date;
}

/**
 * Locks the merchant's current owners (in id order, so two owners changing each other wait for
 * one another) and answers their ids: the last-owner rule is decided on this locked set.
 */
export async function lockOwnersOfMerchant(q: Queryable, merchantId: string): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT id FROM dashboard_users
      WHERE merchant_id = $1 AND role = 'owner' AND removed_at IS NULL ORDER BY id FOR UPDATE`,
    [merchantId],
  );
  return rows.map((r) => r.id);
}

/** A current (not removed) user of this merchant, locked; null for any other merchant's user. */
export async function findTeamMemberForUpdate(
  q: Queryable,
  merchantId: string,
  userId: string,
): Promise<TeamMemberRow | null> {
  const { rows } = await q.query<TeamMemberRow>(
    `SELECT id, email, role, created_at FROM dashboard_users
      WHERE id = $1 AND merchant_id = $2 AND removed_at IS NULL FOR UPDATE`,
    [userId, merchantId],
  );
  return rows[0] ?? null;
}

export async function updateUserRole(q: Queryable, userId: string, role: DashboardRole): Promise<void> {
  await q.query('UPDATE dashboard_users SET role = $2 WHERE id = $1', [userId, role]);
}

export async function markUserRemoved(q: Queryable, userId: string, at: Date): Promise<void> {
  await q.query('UPDATE dashboard_users SET removed_at = $2 WHERE id = $1', [userId, at]);
}

export interface PendingInvitationRow {
  email: string;
  role: DashboardRole;
  invited_by_email: string | null;
  expires_at: Date;
  created_at: Date;
}

export async function listPendingInvitations(
  q: Queryable,
  merchantId: string,
  now: Date,
): Promise<PendingInvitationRow[]> {
  const { rows } = await q.query<PendingInvitationRow>(
    `SELECT i.email, i.role, u.email AS invited_by_email, i.expires_at, i.created_at
       FROM dashboard_invitations i LEFT JOIN dashboard_users u ON u.id = i.invited_by
      WHERE i.merchant_id = $1 AND i.accepted_at IS NULL AND i.expires_at > $2
      ORDER BY i.created_at DESC, i.email`,
    [merchantId, now],
  );
  return rows;
}

/** Revokes by expiring now: acceptance already refuses an expired token, and the row stays as history. */
export async function expirePendingInvitations(
  q: Queryable,
  merchantId: string,
  email: string,
  now: Date,
): Promise<number> {
  return (
    await q.query(
      `UPDATE dashboard_invitations SET expires_at = $3
        WHERE merchant_id = $1 AND email = $2 AND accepted_at IS NULL AND expires_at > $3`,
      [merchantId, email, now],
    )
  ).rowCount;
}

export async function findUserEmail(q: Queryable, userId: string): Promise<string | null> {
  const { rows } = await q.query<{ email: string }>('SELECT email FROM dashboard_users WHERE id = $1', [
    userId,
  ]);
  return rows[0]?.email ?? null;
}
