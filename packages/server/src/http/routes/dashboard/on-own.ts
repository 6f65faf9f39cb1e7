import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { recordDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import type { TenantScope } from '../../../domain/tenant.ts';
import { scopeOf } from './scope.ts';

/**
 * Runs `change` (an operator use case) on the caller's own endpoint or delivery `id`, and records
 * `action` once it has committed. `own` checks the id belongs to the caller's merchant and mode
 * (404 otherwise, before anything changes).
 */
export async function onOwn<T>(
  ctx: AppContext,
  request: FastifyRequest,
  id: string,
  own: (scope: TenantScope, id: string) => Promise<unknown>,
  action: string,
  change: () => Promise<T>,
): Promise<T> {
  const scope = scopeOf(request);
  await own(scope, id);
  const result = await change();
  await recordDashboardAction(ctx, scope, action, id);
  return result;
}
