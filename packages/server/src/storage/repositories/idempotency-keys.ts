import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../db.ts';

/**
 * The operator's key space: the admin API's creating POSTs keep their keys apart from every
 * merchant's (in operator_idempotency_keys), under this scope.
 */
export const OPERATOR_KEY_SPACE: TenantScope = { merchantId: 'operator', livemode: true };

/** The table of a scope's keys. */
function tableOf(scope: TenantScope): 'idempotency_keys' | 'operator_idempotency_keys' {
  return isOperatorKeySpace(scope) ? 'operator_idempotency_keys' : 'idempotency_keys';
}

/** Whether a scope is the operator's key space rather than a merchant's. */
export function isOperatorKeySpace(scope: TenantScope): boolean {
  return scope.merchantId === OPERATOR_KEY_SPACE.merchantId;
}

export interface StoredResponse {
  requestMethod: string;
  requestPath: string;
  requestHash: string;
  responseStatus: number;
  responseBody: string;
  expiresAt: Date;
}

/** A finished response to store under a key, with the key's lock id (for one-statement writes). */
export interface KeyClaim extends StoredResponse {
  lockId: bigint;
  key: string;
}

/**
 * Takes the transaction-scoped lock of one idempotency key. False means another request with the
 * same key holds it right now (in flight). PostgreSQL drops the lock when the transaction ends,
 * also when the process holding it dies, so a crashed request never blocks its key for long.
 */
export async function tryLockKey(q: Queryable, lockId: bigint): Promise<boolean> {
  const { rows } = await q.query<{ locked: boolean }>(
    'SELECT pg_try_advisory_xact_lock($1::bigint) AS locked',
    [lockId.toString()],
  );
  return rows[0]?.locked === true;
}

export async function findStoredResponse(
  q: Queryable,
  scope: TenantScope,
  key: string,
  now: Date,
): Promise<StoredResponse | null> {
  const { rows } = await q.query<{
    request_method: string;
    request_path: string;
    request_hash: string;
    response_status: number;
    response_body: string;
    expires_at: Date;
  }>(
    `SELECT request_method, request_path, request_hash, response_status, response_body, expires_at
       FROM ${tableOf(scope)}
      WHERE merchant_id = $1 AND livemode = $2 AND idempotency_key = $3 AND expires_at > $4`,
    [scope.merchantId, scope.livemode, key, now],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    requestMethod: row.request_method,
    requestPath: row.request_path,
    requestHash: row.request_hash,
    responseStatus: row.response_status,
    responseBody: row.response_body,
    expiresAt: row.expires_at,
  };
}

/** Stores a finished response; an expired row of the same key is replaced (the key is new again). */
export async function storeResponse(
  q: Queryable,
  scope: TenantScope,
  key: string,
  response: StoredResponse,
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO ${tableOf(scope)} AS stored (merchant_id, livemode, idempotency_key, request_method,
                                   request_path, request_hash, response_status, response_body,
                                   created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (merchant_id, livemode, idempotency_key) DO UPDATE
        SET request_method = EXCLUDED.request_method, request_path = EXCLUDED.request_path,
            request_hash = EXCLUDED.request_hash, response_status = EXCLUDED.response_status,
            response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at,
            expires_at = EXCLUDED.expires_at
      WHERE stored.expires_at <= EXCLUDED.created_at`,
    [
      scope.merchantId,
      scope.livemode,
      key,
      response.requestMethod,
      response.requestPath,
      response.requestHash,
      response.responseStatus,
      response.responseBody,
      now,
      response.expiresAt,
    ],
  );
}

/** Deletes keys past their lifetime in bounded batches (merchants' and the operator's); returns how many went. */
export async function deleteExpiredKeys(q: Queryable, now: Date, batchSize: number): Promise<number> {
  let deleted = 0;
  for (const table of ['idempotency_keys', 'operator_idempotency_keys'] as const) {
    const { rowCount } = await q.query(
      `DELETE FROM ${table} WHERE ctid IN (
         SELECT ctid FROM ${table} WHERE expires_at <= $1 LIMIT $2)`,
      [now, batchSize - deleted],
    );
    deleted += rowCount;
    if (deleted >= batchSize) break;
  }
  return deleted;
}
