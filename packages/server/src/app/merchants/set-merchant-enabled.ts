import { NotFoundError } from '../../domain/errors.ts';
import type { Queryable } from '../../storage/db.ts';
import { announceApiKeyChange } from '../../storage/repositories/api-keys.ts';
import { updateMerchant } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { merchantResource } from '../resources/operator.ts';

/**
 * Disables a merchant (all its API keys are refused; its data, events and deliveries stay) or
 * enables it again. Every process forgets the keys it remembers when the change commits, so a
 * disabled merchant's keys stop working everywhere at once, not after the key cache's 5 s.
 * `audit` writes in the same transaction (the console's audit line).
 */
export async function setMerchantEnabled(
  ctx: AppContext,
  merchantId: string,
  enabled: boolean,
  audit?: (tx: Queryable, merchantId: string) => Promise<void>,
) {
  const updated = await ctx.db.transaction(async (tx) => {
    const row = await updateMerchant(tx, merchantId, { disabledAt: enabled ? null : ctx.clock.now() });
    if (!row) throw new NotFoundError('merchant', merchantId);
    // Both ways: a key refused while the merchant was disabled may be remembered as unknown.
    await announceApiKeyChange(tx, '*');
    await audit?.(tx, row.id);
    return row;
  });
  return merchantResource(updated);
}
