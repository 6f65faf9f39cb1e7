import { NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  type ApiKeyListRow,
  announceApiKeyChange,
  findApiKey,
  revokeApiKey as markRevoked,
} from '../../storage/repositories/api-keys.ts';
import type { AppContext } from '../context.ts';
import { apiKeyResource } from '../resources/operator.ts';

/**
 * Revokes a key inside `tx` and tells every process to forget it at the commit (their key caches
 * would otherwise accept it for up to 5 s). Revoking a revoked key keeps its first revoked_at.
 */
export async function revokeKeyIn(tx: Queryable, keyId: string, now: Date): Promise<ApiKeyListRow> {
  const revoked = await markRevoked(tx, keyId, now);
  if (!revoked) throw new NotFoundError('api_key', keyId);
  await announceApiKeyChange(tx, revoked.key_hash);
  return revoked;
}

/**
 * The operator revokes any key; the dashboard passes its tenant (`scope`), and another tenant's
 * key reads as absent. `audit` is written in the same transaction.
 */
export async function revokeApiKey(
  ctx: AppContext,
  keyId: string,
  options: { scope?: TenantScope; audit?: (tx: Queryable) => Promise<void> } = {},
) {
  const revoked = await ctx.db.transaction(async (tx) => {
    if (options.scope) {
      const key = await findApiKey(tx, keyId, { forUpdate: true });
      if (!key || key.merchant_id !== options.scope.merchantId || key.livemode !== options.scope.livemode) {
        throw new NotFoundError('api_key', keyId);
      }
    }
    const row = await revokeKeyIn(tx, keyId, ctx.clock.now());
    await options.audit?.(tx);
    return row;
  });
  return apiKeyResource(revoked);
}
