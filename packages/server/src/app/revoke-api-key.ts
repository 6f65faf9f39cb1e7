import { NotFoundError } from '../domain/errors.ts';
import type { Queryable } from '../storage/db.ts';
import {
  type ApiKeyListRow,
  announceApiKeyChange,
  revokeApiKey as markRevoked,
} from '../storage/repositories/api-keys.ts';
import type { AppContext } from './context.ts';
import { apiKeyResource } from './resources/operator.ts';

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

export async function revokeApiKey(ctx: AppContext, keyId: string) {
  const revoked = await ctx.db.transaction((tx) => revokeKeyIn(tx, keyId, ctx.clock.now()));
  return apiKeyResource(revoked);
}
