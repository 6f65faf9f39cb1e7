import { AppError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../../storage/db.ts';
import { announceApiKeyChange, expireApiKey, findApiKey } from '../../storage/repositories/api-keys.ts';
import type { AppContext } from '../context.ts';
import { issueApiKey } from '../merchants/create-merchant.ts';
import { apiKeyResource } from '../resources/operator.ts';
import { revokeKeyIn } from './revoke-api-key.ts';

/** The longest a rolled key may keep working beside its replacement. */
export const ROLL_GRACE_MAX_SECONDS = 7 * 24 * 3600;

export interface RollOptions {
  /** Only a key of this tenant (the dashboard); another's reads as absent. */
  scope?: TenantScope;
  /** How long the old key keeps working (0, the default: it stops at once). */
  graceSeconds?: number;
  /** Written in the roll's transaction (the dashboard's audit entry). */
  audit?: (tx: Queryable, newKeyId: string) => Promise<void>;
}

/**
 * Rolls a key: issues its replacement (same merchant, mode, kind and permissions) and ends the
 * old one, at once or after a grace period, in one transaction. Every process hears of the change
 * at the commit (NOTIFY) and re-reads the key; the end of a grace period is checked on the clock
 * at each use. The new key is shown once.
 */
export async function rollApiKey(ctx: AppContext, keyId: string, options: RollOptions = {}) {
  const grace = options.graceSeconds ?? 0;
  if (!Number.isInteger(grace) || grace < 0 || grace > ROLL_GRACE_MAX_SECONDS) {
    throw new ValidationError('expires_in_seconds', `must be an integer from 0 to ${ROLL_GRACE_MAX_SECONDS}`);
  }
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const old = await findApiKey(tx, keyId, { forUpdate: true });
    if (
      !old ||
      (options.scope &&
        (old.merchant_id !== options.scope.merchantId || old.livemode !== options.scope.livemode))
    ) {
      throw new NotFoundError('api_key', keyId);
    }
    if (old.revoked_at) {
      throw new AppError(
        'invalid_state_transition',
        `API key '${keyId}' is revoked: create a new key instead.`,
      );
    }
    if (grace === 0) {
      await revokeKeyIn(tx, keyId, now);
    } else {
      await expireApiKey(tx, keyId, new Date(now.getTime() + grace * 1000));
      await announceApiKeyChange(tx, old.key_hash);
    }
    const created = await issueApiKey(tx, now, old.merchant_id, {
      livemode: old.livemode,
      kind: old.kind,
      permissions: old.permissions,
    });
    await options.audit?.(tx, created.id);
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
        expires_at: null,
      },
      created.key,
    );
  });
}
