import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { pendingInvitations } from '../../../app/dashboard/list-pending-invitations.ts';
import { listTeamMembers } from '../../../app/dashboard/list-team-members.ts';
import { removeUser } from '../../../app/dashboard/remove-user.ts';
import { revokeInvitation } from '../../../app/dashboard/revoke-invitation.ts';
import { AppError, NotFoundError } from '../../../domain/errors.ts';
import { fill, roleLabel } from '../../../i18n/i18n.ts';
import { type Asking, confirmedAction } from '../confirmed-action.ts';

/**
 * The Team page's two confirmations (owners), each through the confirmed-action builder: its
 * plain form POST runs the same use case as the API (audited in its transaction) and sends the
 * browser back to the Team page, which says what changed (post, redirect, get).
 *
 * - Removing a member ends their access at once; nobody is offered their own removal, and the
 *   last owner's removal is refused on the page with the reason.
 * - Revoking an invitation stops the link its e-mail carries.
 */
export async function dashboardTeamConfirmationRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const teamPage = ({ link }: Asking, query?: Record<string, string>) => link('/dashboard/team', query);

  confirmedAction(app, ctx, {
    url: '/dashboard/team/:id/remove',
    role: 'administer',
    title: 'confirmRemoveTitle',
    load: async ({ scope, params }) => {
      const id = params.id ?? '';
      const member = (await listTeamMembers(ctx, scope.merchantId)).find((u) => u.id === id);
      if (!member) throw new NotFoundError('dashboard user', id);
      return member;
    },
    list: (ask) => teamPage(ask),
    back: (_member, ask) => teamPage(ask),
    ask: (member, { m, scope }) => {
      if (member.id === scope.user.id) throw new AppError('invalid_state_transition', m.removeSelfRefused);
      return {
        statement: fill(m.confirmRemove, { email: member.email, role: roleLabel(scope.locale, member.role) }),
        details: [m.confirmRemoveEffect, m.confirmRemoveAgain],
        button: fill(m.confirmRemoveButton, { email: member.email }),
        destructive: true,
      };
    },
    run: async (member, ask) => {
      await removeUser(ctx, ask.scope.merchantId, ask.scope.user.id, member.id);
      return { redirect: teamPage(ask, { removed: member.email }) };
    },
  });

  confirmedAction(app, ctx, {
    url: '/dashboard/team/invitations/:email/revoke',
    role: 'administer',
    title: 'confirmRevokeInvitationTitle',
    load: async ({ scope, params }) => {
      const email = (params.email ?? '').trim().toLowerCase();
      const invitation = (await pendingInvitations(ctx, scope.merchantId)).find((i) => i.email === email);
      if (!invitation) throw new NotFoundError('pending invitation', email);
      return invitation;
    },
    list: (ask) => teamPage(ask),
    back: (_invitation, ask) => teamPage(ask),
    ask: (invitation, { m, scope }) => ({
      statement: fill(m.confirmRevokeInvitation, {
        email: invitation.email,
        role: roleLabel(scope.locale, invitation.role),
      }),
      details: [m.confirmRevokeInvitationEffect, m.confirmRevokeInvitationAgain],
      button: fill(m.revokeInvitationOf, { email: invitation.email }),
      destructive: true,
    }),
    run: async (invitation, ask) => {
      await revokeInvitation(ctx, ask.scope.merchantId, ask.scope.user.id, invitation.email);
      return { redirect: teamPage(ask, { invitation_revoked: invitation.email }) };
    },
  });
}
