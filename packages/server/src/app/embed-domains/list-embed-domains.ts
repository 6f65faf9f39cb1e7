import { NotFoundError } from '../../domain/errors.ts';
import type { Queryable } from '../../storage/db.ts';
import { type EmbedDomainRow, listEmbedDomains } from '../../storage/repositories/embed-domains.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';

/** A merchant's embed domains: where the checkout frame may be embedded (404 for an unknown merchant). */
export async function embedDomainsOf(q: Queryable, merchantId: string): Promise<EmbedDomainRow[]> {
  if (!(await findMerchant(q, merchantId))) throw new NotFoundError('merchant', merchantId);
  return listEmbedDomains(q, merchantId);
}
