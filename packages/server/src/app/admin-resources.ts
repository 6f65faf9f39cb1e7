import type { ApiKey, Merchant } from '@paygate/contract';
import type { Static } from 'typebox';
import type { IdPrefix } from '../domain/ids.ts';
import { decodeListCursor, encodeListCursor, type ListPosition } from '../domain/list-cursor.ts';
import type { ApiKeyRow } from '../storage/repositories/api-keys.ts';
import type { MerchantListRow } from '../storage/repositories/merchants.ts';

export function merchantResource(row: MerchantListRow): Static<typeof Merchant> {
  return {
    id: row.id,
    object: 'merchant',
    name: row.name,
    status: row.disabled_at ? 'disabled' : 'active',
    created_at: row.created_at.toISOString(),
  };
}

/** An API key as the operator sees it: the hint, never the key (`key` only at creation or roll). */
export function apiKeyResource(row: Omit<ApiKeyRow, 'key_hash'>, key?: string): Static<typeof ApiKey> {
  return {
    id: row.id,
    object: 'api_key',
    merchant_id: row.merchant_id,
    livemode: row.livemode,
    kind: row.kind,
    permissions: row.permissions,
    key_hint: row.key_hint,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at ? row.revoked_at.toISOString() : null,
    ...(key !== undefined ? { key } : {}),
  };
}

export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface PageRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** The position to continue after, from the caller's cursor (a malformed one is `400`). */
export function pageStart(request: PageRequest, prefix: IdPrefix): ListPosition | null {
  return request.cursor === undefined ? null : decodeListCursor(request.cursor, prefix);
}

/** A page from `limit + 1` rows read newest first: the extra row only says that more follow. */
export function toPage<Row extends { id: string; position: string }, T>(
  rows: Row[],
  limit: number,
  show: (row: Row) => T,
): Page<T> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  const hasMore = rows.length > limit;
  return {
    object: 'list',
    data: shown.map(show),
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeListCursor({ createdAt: last.position, id: last.id }) : null,
  };
}
