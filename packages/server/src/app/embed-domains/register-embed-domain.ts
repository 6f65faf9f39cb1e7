import { NotFoundError } from '../../domain/errors.ts';
import type { Queryable } from '../../storage/db.ts';
import { type EmbedDomainRow, insertEmbedDomain } from '../../storage/repositories/embed-domains.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { canonicalEmbedOrigin } from './embed-origins.ts';

/** Adds an origin, in its canonical form, to the merchant's embed domains; adding it twice changes nothing. */
export async function registerEmbedDomain(
  ctx: AppContext,
  merchantId: string,
  origin: string,
  /** Written in the same transaction when the origin is new (the dashboard's audit entry). */
  audit?: (tx: Queryable, origin: string) => Promise<void>,
): Promise<{ domain: EmbedDomainRow; created: boolean }> {
  const canonical = canonicalEmbedOrigin(origin);
  return ctx.db.transaction(async (tx) => {
    if (!(await findMerchant(tx, merchantId))) throw new NotFoundError('merchant', merchantId);
    const added = await insertEmbedDomain(tx, {
      merchant_id: merchantId,
      origin: canonical,
      created_at: ctx.clock.now(),
    });
    if (added.created) await audit?.(tx, canonical);
    return added;
  });
}
