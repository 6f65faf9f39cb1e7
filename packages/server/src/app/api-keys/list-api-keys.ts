import { ADMIN_LIST_DEFAULT_LIMIT } from '@paygate/contract';
import { NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { listApiKeysOfMode, listApiKeys as readPage } from '../../storage/repositories/api-keys.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { type PageRequest, pageStart, toPage } from '../pagination.ts';
import { apiKeyResource } from '../resources/operator.ts';

/** A merchant's API keys (hints only, revoked ones included), newest first. */
export async function listApiKeys(ctx: AppContext, merchantId: string, request: PageRequest) {
  const limit = request.limit ?? ADMIN_LIST_DEFAULT_LIMIT;
  const after = pageStart(request, 'key');
  if (!(await findMerchant(ctx.db, merchantId))) throw new NotFoundError('merchant', merchantId);
  const rows = await readPage(ctx.db, merchantId, { limit, after });
  return toPage(rows, limit, (row) => apiKeyResource(row));
}

export const MODE_KEY_LIST_LIMIT = 100;

/** The keys of one tenant (merchant and mode), newest first, revoked and expired ones included. */
export async function listApiKeysOfTenant(ctx: AppContext, scope: TenantScope) {
  const rows = await listApiKeysOfMode(ctx.db, scope.merchantId, scope.livemode, MODE_KEY_LIST_LIMIT);
  return rows.map((row) => apiKeyResource(row));
}
