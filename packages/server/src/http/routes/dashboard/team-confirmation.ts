import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { listTeamMembers } from '../../../app/dashboard/list-team-members.ts';
import { removeUser } from '../../../app/dashboard/remove-user.ts';
import { confirmationPage, confirmationProblem } from '../../../dashboard/confirm-pages.ts';
import { fill, roleLabel, t } from '../../../dashboard/i18n.ts';
import { href } from '../../../dashboard/navigation.ts';
import { AppError, NotFoundError } from '../../../domain/errors.ts';
import { acceptForms, pageAction } from './page-actions.ts';
import { dashboardPage, html, pageFrame } from './page-kit.ts';
import type { DashboardScope } from './scope.ts';

type Params = { Params: { id: string } };

/**
 * Removing a member ends their access at once, so the Team page's Remove opens a confirmation
 * naming the person and what happens; its plain form POST runs the same use case as the API
 * (audited in its transaction) and sends the browser back to the Team page, which no longer lists
 * them (post, redirect, get). Nobody is offered their own removal.
 */
export async function dashboardTeamConfirmationRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  acceptForms(app);

  const memberOf = async (scope: DashboardScope, id: string) => {
    const member = (await listTeamMembers(ctx, scope.merchantId)).find((u) => u.id === id);
    if (!member) throw new NotFoundError('dashboard user', id);
    return member;
  };

  const confirmation = async (
    scope: DashboardScope,
    member: { id: string; email: string; role: string },
    problem?: string,
  ) => {
    const m = t(scope.locale);
    const path = `/dashboard/team/${member.id}/remove`;
    const frame = await pageFrame(ctx, scope, path, m.confirmRemoveTitle);
    const team = href('/dashboard/team', scope.locale);
    if (member.id === scope.user.id) return confirmationProblem(frame, m.removeSelfRefused, team);
    return confirmationPage(frame, {
      statement: fill(m.confirmRemove, { email: member.email, role: roleLabel(scope.locale, member.role) }),
      details: [m.confirmRemoveEffect, m.confirmRemoveAgain],
      action: href(path, scope.locale),
      button: fill(m.confirmRemoveButton, { email: member.email }),
      destructive: true,
      cancelHref: team,
      ...(problem ? { problem } : {}),
    });
  };

  dashboardPage<Params>(app, ctx, '/dashboard/team/:id/remove', async (request, reply, { scope }) => {
    const member = await memberOf(scope, request.params.id);
    return html(reply, await confirmation(scope, member), member.id === scope.user.id ? 409 : 200);
  });

  pageAction<Params>(app, '/dashboard/team/:id/remove', 'administer', async (request, reply, scope) => {
    const member = await memberOf(scope, request.params.id);
    if (member.id === scope.user.id) return html(reply, await confirmation(scope, member), 409);
    try {
      await removeUser(ctx, scope.merchantId, scope.user.id, member.id);
    } catch (error) {
      // The last owner: the page says why, and the form stays.
      if (!(error instanceof AppError)) throw error;
      return html(reply, await confirmation(scope, member, error.message), error.status);
    }
    return reply.redirect(href('/dashboard/team', scope.locale, { removed: member.email }), 303);
  });
}
