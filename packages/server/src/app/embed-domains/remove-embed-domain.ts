import { NotFoundError } from '../../domain/errors.ts';
import type { Queryable } from '../../storage/db.ts';
import { deleteEmbedDomain } from '../../storage/repositories/embed-domains.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { removedEmbedDomainResource } from '../resources/operator.ts';
import { canonicalEmbedOrigin } from './embed-origins.ts';

/** Removes an origin from the merchant's embed domains: the frame is refused there from now on. */
export async function removeEmbedDomain(
  ctx: AppContext,
  merchantId: string,
  origin: string,
  /** Written in the same transaction (the dashboard's audit entry). */
  audit?: (tx: Queryable, origin: string) => Promise<void>,
) {
  const canonical = canonicalEmbedOrigin(origin);
  return ctx.db.transaction(async (tx) => {
    if (!(await findMerchant(tx, merchantId))) throw new NotFoundError('merchant', merchantId);
    if (!(await deleteEmbedDomain(tx, merchantId, canonical)))
      throw new NotFoundError('embed domain', canonical);
    await audit?.(tx, canonical);
    return removedEmbedDomainResource(merchantId, canonical);
  });
}
