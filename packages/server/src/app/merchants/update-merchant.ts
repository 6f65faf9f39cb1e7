import { NotFoundError } from '../../domain/errors.ts';
import { updateMerchant as writeMerchant } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { merchantResource } from '../resources/operator.ts';

/** Renames a merchant (the one field the operator may change). */
export async function updateMerchant(ctx: AppContext, merchantId: string, change: { name: string }) {
  const updated = await writeMerchant(ctx.db, merchantId, { name: change.name });
  if (!updated) throw new NotFoundError('merchant', merchantId);
  return merchantResource(updated);
}
