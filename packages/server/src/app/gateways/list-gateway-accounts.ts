import { ADMIN_LIST_DEFAULT_LIMIT } from '@paygate/contract';
import { listGatewayAccounts as readPage } from '../../storage/repositories/gateway-accounts-operator.ts';
import type { AppContext } from '../context.ts';
import { type PageRequest, pageStart, toPage } from '../pagination.ts';
import { gatewayAccountResource } from '../resources/gateway-account.ts';
import { merchantMustExist } from './gateway-account-checks.ts';

/** A merchant's gateway accounts, disabled ones included, newest first. */
export async function listGatewayAccounts(ctx: AppContext, merchantId: string, request: PageRequest) {
  const limit = request.limit ?? ADMIN_LIST_DEFAULT_LIMIT;
  const after = pageStart(request, 'gwa');
  await merchantMustExist(ctx, merchantId);
  const rows = await readPage(ctx.db, merchantId, { limit, after });
  return toPage(rows, limit, (row) => gatewayAccountResource(row, ctx.publicUrl));
}
