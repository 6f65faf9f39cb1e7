import { ADMIN_LIST_DEFAULT_LIMIT } from '@paygate/contract';
import { listMerchants as readPage } from '../storage/repositories/merchants.ts';
import { merchantResource, type PageRequest, pageStart, toPage } from './admin-resources.ts';
import type { AppContext } from './context.ts';

/** The operator's list of merchants, newest first, with cursor pagination. */
export async function listMerchants(ctx: AppContext, request: PageRequest) {
  const limit = request.limit ?? ADMIN_LIST_DEFAULT_LIMIT;
  const rows = await readPage(ctx.db, { limit, after: pageStart(request, 'acct') });
  return toPage(rows, limit, merchantResource);
}
