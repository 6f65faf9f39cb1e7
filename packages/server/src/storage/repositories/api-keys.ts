import type { ApiKeyKind } from '../../domain/api-keys.ts';
import type { ListPosition } from '../../domain/list-cursor.ts';
import { POSITION_SQL, type Queryable } from '../db.ts';

export interface ApiKeyRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  kind: ApiKeyKind;
  key_hash: string;
  key_hint: string;
  permissions: string[] | null;
  created_at: Date;
  revoked_at: Date | null;
  /** When a rolled key stops working (null: no end); see 072_api_key_expiry.sql. */
  expires_at: Date | null;
}

const columns =
  'id, merchant_id, livemode, kind, key_hash, key_hint, permissions, created_at, revoked_at, expires_at';

export async function insertApiKey(
  q: Queryable,
  key: Omit<ApiKeyRow, 'revoked_at' | 'expires_at'>,
): Promise<void> {
  await q.query(
    `INSERT INTO api_keys (id, merchant_id, livemode, kind, key_hash, key_hint, permissions, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      key.id,
      key.merchant_id,
      key.livemode,
      key.kind,
      key.key_hash,
      key.key_hint,
      key.permissions,
      key.created_at,
    ],
  );
}

/** A key that works at `now`: not revoked, not expired, and its merchant not disabled. */
export async function findActiveApiKeyByHash(
  q: Queryable,
  keyHash: string,
  now: Date,
): Promise<ApiKeyRow | null> {
  const { rows } = await q.query<ApiKeyRow>(
    `SELECT ${columns} FROM api_keys
      WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)
        AND NOT EXISTS (SELECT 1 FROM merchants m WHERE m.id = api_keys.merchant_id AND m.disabled_at IS NOT NULL)`,
    [keyHash, now],
  );
  return rows[0] ?? null;
}

/**
 * Processes remember keys for a few seconds (the API-key cache); a revocation tells all of them
 * at its commit through this channel: the payload is the key's hash, or `*` for "forget all"
 * (a merchant was disabled).
 */
export const API_KEY_CHANGES_CHANNEL = 'paygate_api_key_changes';

export async function announceApiKeyChange(q: Queryable, keyHashOrAll: string): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [API_KEY_CHANGES_CHANNEL, keyHashOrAll]);
}

export interface ApiKeyListRow extends ApiKeyRow {
  position: string;
}

const listColumns = `${columns}, ${POSITION_SQL} AS position`;

export async function findApiKey(
  q: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ApiKeyListRow | null> {
  const { rows } = await q.query<ApiKeyListRow>(
    `SELECT ${listColumns} FROM api_keys WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function listApiKeys(
  q: Queryable,
  merchantId: string,
  page: { limit: number; after: ListPosition | null },
): Promise<ApiKeyListRow[]> {
  const { rows } = await q.query<ApiKeyListRow>(
    `SELECT ${listColumns} FROM api_keys
      WHERE merchant_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::text))
      ORDER BY created_at DESC, id DESC
      LIMIT $4`,
    [merchantId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit + 1],
  );
  return rows;
}

export async function revokeApiKey(q: Queryable, id: string, now: Date): Promise<ApiKeyListRow | null> {
  const { rows } = await q.query<ApiKeyListRow>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${listColumns}`,
    [id, now],
  );
  return rows[0] ?? null;
}

/** Sets when a key stops working (a roll with a grace period); an earlier end is kept. */
export async function expireApiKey(q: Queryable, id: string, at: Date): Promise<ApiKeyListRow | null> {
  const { rows } = await q.query<ApiKeyListRow>(
    `UPDATE api_keys SET expires_at = LEAST(COALESCE(expires_at, $2), $2) WHERE id = $1 RETURNING ${listColumns}`,
    [id, at],
  );
  return rows[0] ?? null;
}

/** The keys of one tenant (merchant and mode), newest first: the dashboard's key list. */
export async function listApiKeysOfMode(
  q: Queryable,
  merchantId: string,
  livemode: boolean,
  limit: number,
): Promise<ApiKeyListRow[]> {
  const { rows } = await q.query<ApiKeyListRow>(
    `SELECT ${listColumns} FROM api_keys WHERE merchant_id = $1 AND livemode = $2
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    [merchantId, livemode, limit],
  );
  return rows;
}
