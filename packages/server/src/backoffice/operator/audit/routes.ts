import type { FastifyRequest } from 'fastify';
import { pageLimit } from '../../../app/back-office-users/audit.ts';
import type { AppContext } from '../../../app/context.ts';
import { operatorAuditLog } from '../../../app/operators/operator-accounts.ts';
import { AppError } from '../../../domain/errors.ts';
import { text } from '../../dashboard/page-kit.ts';
import { problemText } from '../../kit/problems.ts';
import type { Drawn } from '../console-kit.ts';
import type { OperatorView } from '../pages.ts';
import { operatorAuditPage } from './page.ts';

/**
 * The console's audit log page: filters (action, operator, UTC days) and keyset pages both ways,
 * all in the URL. A filter or cursor the use case refuses is a 400 page: an alert in the page's
 * language, naming the field, above an empty list.
 */
export function operatorAuditRoute(ctx: AppContext) {
  return async (request: FastifyRequest, view: OperatorView): Promise<string | Drawn> => {
    const filters = {
      action: text(request.query, 'action'),
      operator_email: text(request.query, 'operator_email'),
      created_gte: text(request.query, 'created_gte'),
      created_lt: text(request.query, 'created_lt'),
      limit: text(request.query, 'limit'),
    };
    try {
      const result = await operatorAuditLog(ctx, {
        ...filters,
        limit: pageLimit(filters.limit),
        cursor: text(request.query, 'cursor'),
        before: text(request.query, 'before'),
      });
      return operatorAuditPage(view, filters, result);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      const empty = { entries: [], next_cursor: null, previous_cursor: null };
      const body = operatorAuditPage({ ...view, problem: problemText(view.lang, error) }, filters, empty);
      return { body, status: error.status };
    }
  };
}
