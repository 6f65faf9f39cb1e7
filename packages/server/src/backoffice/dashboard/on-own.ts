import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app/context.ts';
import { auditedDashboardChange } from '../../app/dashboard/audit-dashboard-action.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { scopeOf } from './scope.ts';

/**
 * Runs `change` (an operator use case) on the caller's own endpoint `id`, with `action`'s audit
 * line in the same transaction (`auditedDashboardChange`: `change` works through the context it
 * is given). `own` checks the id belongs to the caller's merchant and mode (404 otherwise, before
 * anything changes).
 */
export async function onOwn<T>(
  ctx: AppContext,
  request: FastifyRequest,
  id: string,
  own: (scope: TenantScope, id: string) => Promise<unknown>,
  action: string,
  change: (ctx: AppContext) => Promise<T>,
): Promise<T> {
  const scope = scopeOf(request);
  await own(scope, id);
  return auditedDashboardChange(ctx, scope, action, change, () => id);
}
