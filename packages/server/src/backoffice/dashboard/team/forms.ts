import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inviteUser } from '../../../app/back-office-users/accounts.ts';
import { listAudit } from '../../../app/back-office-users/audit.ts';
import type { AppContext } from '../../../app/context.ts';
import { changeUserRole } from '../../../app/dashboard/change-user-role.ts';
import { pendingInvitations } from '../../../app/dashboard/list-pending-invitations.ts';
import { listTeamMembers } from '../../../app/dashboard/list-team-members.ts';
import { type DashboardRole, dashboardRoles, roleAllows } from '../../../domain/dashboard-roles.ts';
import { AppError, ValidationError } from '../../../domain/errors.ts';
import { t } from '../../../i18n/i18n.ts';
import { href } from '../../kit/navigation.ts';
import { problemText } from '../../kit/problems.ts';
import { acceptForms, formField, pageAction } from '../page-actions.ts';
import { dashboardPage, html, pageFrame, text } from '../page-kit.ts';
import type { DashboardScope } from '../scope.ts';
import { type TeamOutcome, teamPage } from './page.ts';

type Params = { Params: { id: string } };

/** The redirect's query naming whom the last action concerned (the Team page checks it against its state). */
const OUTCOME_QUERY = {
  removed: 'removed',
  invited: 'invited',
  roleChanged: 'role_changed',
  invitationRevoked: 'invitation_revoked',
} as const;

/** A role typed into a form: one of the three (a hand-made post gets the refusal naming them). */
function roleOf(request: FastifyRequest): DashboardRole {
  const role = formField(request, 'role');
  const known = dashboardRoles.find((r) => r === role);
  if (!known) throw new ValidationError('role', `must be one of ${dashboardRoles.join(', ')}`);
  return known;
}

/**
 * The Team page and its plain forms (owners): invite a member, change a role. Each post runs the
 * same use case as the dashboard API (audited in its transaction), then redirects to the Team
 * page, which says what changed as the state it reads shows it (post, redirect, get). A refusal
 * draws the Team page again with why, in its language, and the invitation's typed fields kept.
 */
export async function dashboardTeamFormRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  acceptForms(app);
  dashboardPage(app, ctx, '/dashboard/team', async (request, reply, { scope }) => {
    const outcome: TeamOutcome = {};
    for (const [name, param] of Object.entries(OUTCOME_QUERY)) {
      const value = text(request.query, param);
      if (value) outcome[name as keyof typeof OUTCOME_QUERY] = value;
    }
    return drawTeam(ctx, reply, scope, outcome);
  });
  teamForms(app, ctx);
}

const drawTeam = async (
  ctx: AppContext,
  reply: FastifyReply,
  scope: DashboardScope,
  outcome: TeamOutcome,
  status = 200,
) => {
  const { merchantId } = scope;
  const users = await listTeamMembers(ctx, merchantId);
  const owner = roleAllows(scope.role, 'administer');
  const audit = owner ? await listAudit(ctx, merchantId) : null;
  const invitations = owner ? await pendingInvitations(ctx, merchantId) : null;
  const frame = await pageFrame(ctx, scope, '/dashboard/team', t(scope.locale).team);
  return html(reply, teamPage(frame, { users, audit, invitations }, outcome), status);
};

const refused = (
  ctx: AppContext,
  reply: FastifyReply,
  scope: DashboardScope,
  error: unknown,
  typed?: TeamOutcome['typed'],
) => {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  const problem = problemText(scope.locale, error);
  return drawTeam(ctx, reply, scope, typed ? { problem, typed } : { problem }, error.status);
};

/** Inviting a user, changing a member's role. */
function teamForms(app: FastifyInstance, ctx: AppContext): void {
  pageAction(app, '/dashboard/team/invitations', 'administer', async (request, reply, scope) => {
    const body = request.body as Record<string, unknown> | undefined;
    const typed = {
      email: typeof body?.email === 'string' ? body.email : '',
      role: typeof body?.role === 'string' ? body.role : '',
    };
    try {
      const role = roleOf(request);
      const invitation = await inviteUser(
        ctx,
        scope.merchantId,
        { email: formField(request, 'email'), role },
        scope.user.id,
        scope.locale,
      );
      return reply.redirect(href('/dashboard/team', scope.locale, { invited: invitation.email }), 303);
    } catch (error) {
      return refused(ctx, reply, scope, error, typed);
    }
  });

  pageAction<Params>(app, '/dashboard/team/:id/role', 'administer', async (request, reply, scope) => {
    try {
      const member = await changeUserRole(
        ctx,
        scope.merchantId,
        scope.user.id,
        request.params.id,
        roleOf(request),
      );
      return reply.redirect(href('/dashboard/team', scope.locale, { role_changed: member.email }), 303);
    } catch (error) {
      return refused(ctx, reply, scope, error);
    }
  });
}
