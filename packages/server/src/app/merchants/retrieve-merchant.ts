import { NotFoundError } from '../../domain/errors.ts';
import { findMerchantWithStatus } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { merchantResource } from '../resources/operator.ts';

export async function retrieveMerchant(ctx: AppContext, merchantId: string) {
  const merchant = await findMerchantWithStatus(ctx.db, merchantId);
  if (!merchant) throw new NotFoundError('merchant', merchantId);
  return merchantResource(merchant);
}
