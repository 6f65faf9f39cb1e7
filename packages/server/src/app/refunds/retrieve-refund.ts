import { NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { findRefund, type RefundRecord } from '../../storage/repositories/refunds.ts';
import type { AppContext } from '../context.ts';

/** Reads one refund of the caller's merchant and mode; any other id is 404. */
export async function retrieveRefund(ctx: AppContext, scope: TenantScope, id: string): Promise<RefundRecord> {
  const refund = await findRefund(ctx.db, scope, id);
  if (!refund) throw new NotFoundError('refund', id);
  return refund;
}
