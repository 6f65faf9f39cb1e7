import { Type } from 'typebox';
import { IdOf, Timestamp } from './common.ts';
import { DashboardRole } from './dashboard.ts';
import type { Operation } from './operations.ts';

/** The team page's changes: roles, removal, pending invitations (owners only). */
export const DashboardUserParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

export const ChangeRoleBody = Type.Object({ role: DashboardRole }, { additionalProperties: false });

export const DashboardUser = Type.Object({
  object: Type.Literal('dashboard_user'),
  id: IdOf('usr'),
  email: Type.String(),
  role: DashboardRole,
  created_at: Timestamp,
});

export const RemovedDashboardUser = Type.Object({
  object: Type.Literal('dashboard_user'),
  id: IdOf('usr'),
  removed: Type.Literal(true),
  sessions_ended: Type.Integer({ description: 'Sessions of the user that ended with the removal' }),
});

export const PendingInvitationList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      email: Type.String(),
      role: DashboardRole,
      invited_by: Type.Union([Type.String(), Type.Null()], { description: 'null: the operator' }),
      expires_at: Timestamp,
      created_at: Timestamp,
    }),
  ),
});

export const RevokeInvitationBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }) },
  { additionalProperties: false },
);

export const RevokedInvitations = Type.Object({
  object: Type.Literal('invitation_revocation'),
  email: Type.String(),
  revoked: Type.Integer({ description: 'Pending invitations of the address that were revoked' }),
});

export const dashboardTeamOperations = {
  dashboardChangeUserRole: {
    method: 'POST',
    path: '/dashboard/api/v1/users/{id}/role',
    summary: "Change a user's role (owners only; the last owner keeps the owner role)",
    credential: 'session',
    dashboardAccess: 'administer',
    params: DashboardUserParams,
    body: ChangeRoleBody,
    response: DashboardUser,
    tag: 'Dashboard',
  },
  dashboardRemoveUser: {
    method: 'POST',
    path: '/dashboard/api/v1/users/{id}/remove',
    summary: 'Remove a user from the team and end their sessions (owners only; never the last owner)',
    credential: 'session',
    dashboardAccess: 'administer',
    params: DashboardUserParams,
    response: RemovedDashboardUser,
    tag: 'Dashboard',
  },
  dashboardListInvitations: {
    method: 'GET',
    path: '/dashboard/api/v1/invitations',
    summary: 'Pending invitations: not accepted, not expired, not revoked (owners only)',
    credential: 'session',
    dashboardAccess: 'administer',
    response: PendingInvitationList,
    tag: 'Dashboard',
  },
  dashboardRevokeInvitation: {
    method: 'POST',
    path: '/dashboard/api/v1/invitations/revoke',
    summary: 'Revoke the pending invitations of an address: their link stops working (owners only)',
    credential: 'session',
    dashboardAccess: 'administer',
    body: RevokeInvitationBody,
    response: RevokedInvitations,
    tag: 'Dashboard',
  },
} satisfies Record<string, Operation>;
