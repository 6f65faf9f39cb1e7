import { AppError, NotFoundError } from '../domain/errors.ts';
import { findApiKey } from '../storage/repositories/api-keys.ts';
import type { AppContext } from './context.ts';
import { issueApiKey } from './create-merchant.ts';
import { apiKeyResource } from './resources/operator.ts';
import { revokeKeyIn } from './revoke-api-key.ts';

/**
 * Rolls a key: revokes it and issues its replacement (same merchant, mode, kind and permissions)
 * in one transaction, so there is never a moment with neither or both. The new key is shown once.
 */
export async function rollApiKey(ctx: AppContext, keyId: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const old = await findApiKey(tx, keyId, { forUpdate: true });
    if (!old) throw new NotFoundError('api_key', keyId);
    if (old.revoked_at) {
      throw new AppError(
        'invalid_state_transition',
        `API key '${keyId}' is revoked: create a new key instead.`,
      );
    }
    await revokeKeyIn(tx, keyId, now);
    const created = await issueApiKey(tx, now, old.merchant_id, {
      livemode: old.livemode,
      kind: old.kind,
      permissions: old.permissions,
    });
    return apiKeyResource(
      {
        id: created.id,
        merchant_id: created.merchantId,
        livemode: created.livemode,
        kind: created.kind,
        key_hint: created.keyHint,
        permissions: created.permissions,
        created_at: created.createdAt,
        revoked_at: null,
      },
      created.key,
    );
  });
}
