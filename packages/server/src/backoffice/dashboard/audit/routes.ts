import type { FastifyInstance } from 'fastify';
import { pageLimit, searchAudit } from '../../../app/back-office-users/audit.ts';
import type { AppContext } from '../../../app/context.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import { AppError } from '../../../domain/errors.ts';
import { t } from '../../../i18n/i18n.ts';
import { problemText } from '../../kit/problems.ts';
import { dashboardPage, html } from '../page-kit.ts';
import { auditForbiddenPage, auditPage } from './page.ts';

type AuditPageQuery = Partial<
  Record<'cursor' | 'before' | 'limit' | 'action' | 'user_email' | 'created_gte' | 'created_lt', string>
>;

/**
 * The audit log page: owners only, newest first, filtered by action, user and date, read in
 * keyset pages both ways: its links keep every filter and the rows per page in the URL.
 */
export async function dashboardAuditPageRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  type Route = { Querystring: AuditPageQuery };
  dashboardPage<Route>(app, ctx, '/dashboard/audit', async (request, reply, { scope, frame: frameOf }) => {
    const frame = await frameOf('/dashboard/audit', t(scope.locale).auditLog);
    if (!roleAllows(scope.role, 'administer')) return html(reply, auditForbiddenPage(frame), 403);
    const text = (value: unknown) =>
      typeof value === 'string' && value !== '' ? value.slice(0, 254) : undefined;
    const filters = {
      action: text(request.query.action),
      user_email: text(request.query.user_email),
      created_gte: text(request.query.created_gte),
      created_lt: text(request.query.created_lt),
      limit: text(request.query.limit),
    };
    try {
      const result = await searchAudit(ctx, scope.merchantId, {
        ...filters,
        limit: pageLimit(filters.limit),
        cursor: text(request.query.cursor),
        before: text(request.query.before),
      });
      return html(reply, auditPage(frame, filters, result));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const empty = { has_more: false, next_cursor: null, previous_cursor: null, data: [] };
      return html(reply, auditPage(frame, filters, empty, problemText(scope.locale, error)), 400);
    }
  });
}
