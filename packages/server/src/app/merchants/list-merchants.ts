import { ADMIN_LIST_DEFAULT_LIMIT } from '@paygate/contract';
import { listMerchants as readPage } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { type PageRequest, pageStart, toPage } from '../pagination.ts';
import { merchantResource } from '../resources/operator.ts';

/** The operator's list of merchants, newest first, with cursor pagination. */
export async function listMerchants(ctx: AppContext, request: PageRequest) {
  const limit = request.limit ?? ADMIN_LIST_DEFAULT_LIMIT;
  const rows = await readPage(ctx.db, { limit, after: pageStart(request, 'acct') });
  return toPage(rows, limit, merchantResource);
}
