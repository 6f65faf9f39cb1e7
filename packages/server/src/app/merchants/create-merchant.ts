import { type ApiKeyKind, apiKeyHint, generateApiKey, hashApiKey } from '../../domain/api-keys.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { Queryable } from '../../storage/db.ts';
import { insertApiKey } from '../../storage/repositories/api-keys.ts';
import { findMerchant, insertMerchant, type MerchantRow } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';

export interface CreatedApiKey {
  id: string;
  merchantId: string;
  livemode: boolean;
  kind: ApiKeyKind;
  permissions: string[] | null;
  keyHint: string;
  createdAt: Date;
  /** The full key: this is the only time it exists outside the caller's hands. */
  key: string;
}

export async function issueApiKey(
  tx: Queryable,
  now: Date,
  merchantId: string,
  input: { livemode: boolean; kind: ApiKeyKind; permissions: string[] | null },
): Promise<CreatedApiKey> {
  const key = generateApiKey(input.kind, input.livemode);
  const record = {
    id: newId('key'),
    merchant_id: merchantId,
    livemode: input.livemode,
    kind: input.kind,
    key_hash: hashApiKey(key),
    key_hint: apiKeyHint(key),
    permissions: input.permissions,
    created_at: now,
  };
  await insertApiKey(tx, record);
  return {
    id: record.id,
    merchantId,
    livemode: input.livemode,
    kind: input.kind,
    permissions: input.permissions,
    keyHint: record.key_hint,
    createdAt: now,
    key,
  };
}

export interface CreatedMerchant {
  merchant: MerchantRow;
  keys: { secretTest: string; publishableTest: string; secretLive: string; publishableLive: string };
}

/**
 * A merchant comes with one secret and one publishable key for each mode. `audit` writes in the
 * same transaction (the console's audit line), so the merchant and its record commit together.
 */
export async function createMerchant(
  ctx: AppContext,
  name: string,
  audit?: (tx: Queryable, merchantId: string) => Promise<void>,
): Promise<CreatedMerchant> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const created = await insertMerchantWithKeys(tx, now, name);
    await audit?.(tx, created.merchant.id);
    return created;
  });
}

/** The rows of a new merchant and its four keys, inside the caller's transaction. */
export async function insertMerchantWithKeys(
  tx: Queryable,
  now: Date,
  name: string,
): Promise<CreatedMerchant> {
  const merchant: MerchantRow = { id: newId('acct'), name, created_at: now };
  await insertMerchant(tx, merchant);
  const issue = (livemode: boolean, kind: ApiKeyKind) =>
    issueApiKey(tx, now, merchant.id, { livemode, kind, permissions: null }).then((k) => k.key);
  return {
    merchant,
    keys: {
      secretTest: await issue(false, 'secret'),
      publishableTest: await issue(false, 'publishable'),
      secretLive: await issue(true, 'secret'),
      publishableLive: await issue(true, 'publishable'),
    },
  };
}

/** Another key for an existing merchant (the operator's `POST /admin/merchants/{id}/api_keys`). */
export async function createApiKey(
  ctx: AppContext,
  merchantId: string,
  input: { livemode: boolean; kind: ApiKeyKind; permissions: string[] | null },
  /**
   * Written in the same transaction: the dashboard's audit entry, and the dashboard form's hold of
   * the new key for the page it redirects to (so a key nobody was shown is never left behind).
   */
  alsoWrite?: (tx: Queryable, created: CreatedApiKey) => Promise<void>,
): Promise<CreatedApiKey> {
  return ctx.db.transaction(async (tx) => {
    const merchant = await findMerchant(tx, merchantId);
    if (!merchant) throw new NotFoundError('merchant', merchantId);
    const created = await issueApiKey(tx, ctx.clock.now(), merchant.id, input);
    await alsoWrite?.(tx, created);
    return created;
  });
}
