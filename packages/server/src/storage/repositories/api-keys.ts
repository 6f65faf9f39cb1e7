import type { ApiKeyKind } from '../../domain/api-keys.ts';
import type { Queryable } from '../db.ts';

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
}

const columns = 'id, merchant_id, livemode, kind, key_hash, key_hint, permissions, created_at, revoked_at';

export async function insertApiKey(q: Queryable, key: Omit<ApiKeyRow, 'revoked_at'>): Promise<void> {
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

export async function findActiveApiKeyByHash(q: Queryable, keyHash: string): Promise<ApiKeyRow | null> {
  const { rows } = await q.query<ApiKeyRow>(
    `SELECT ${columns} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    [keyHash],
  );
  return rows[0] ?? null;
}
