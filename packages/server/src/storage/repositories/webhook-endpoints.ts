import type { ListPosition } from '../../domain/list-cursor.ts';
import type { EndpointHealth } from '../../domain/retry-schedules.ts';
import { POSITION_SQL, type Queryable, rowMapping } from '../db.ts';

export interface WebhookEndpointRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  url: string;
  enabledEvents: string[];
  secretSealed: string;
  previousSecretSealed: string | null;
  rotationStartedAt: Date | null;
  /** While a rotation is open: when it closes by itself (null: only by hand). */
  rotationExpiresAt: Date | null;
  status: EndpointHealth;
  failingSince: Date | null;
  failedDeliveriesSinceSuccess: number;
  createdAt: Date;
  updatedAt: Date;
}

const endpoints = rowMapping<WebhookEndpointRecord>({
  id: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  url: 'plain',
  enabledEvents: 'plain',
  secretSealed: 'plain',
  previousSecretSealed: 'plain',
  rotationStartedAt: 'plain',
  rotationExpiresAt: 'plain',
  status: 'plain',
  failingSince: 'plain',
  failedDeliveriesSinceSuccess: 'plain',
  createdAt: 'plain',
  updatedAt: 'plain',
});

export async function insertWebhookEndpoint(q: Queryable, endpoint: WebhookEndpointRecord): Promise<void> {
  await q.query(
    `INSERT INTO webhook_endpoints (${endpoints.columns()})
     VALUES (${endpoints.placeholders()})`,
    endpoints.values(endpoint),
  );
}

export async function findWebhookEndpoint(
  q: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebhookEndpointRecord | null> {
  const { rows } = await q.query(
    `SELECT ${endpoints.columns()} FROM webhook_endpoints WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return endpoints.first(rows);
}

/** Writes the secrets of a rotation step (open: two sealed secrets; closed: previous is null). */
export async function updateWebhookEndpointSecrets(
  q: Queryable,
  id: string,
  change: {
    secretSealed: string;
    previousSecretSealed: string | null;
    rotationStartedAt: Date | null;
    rotationExpiresAt: Date | null;
    now: Date;
  },
): Promise<WebhookEndpointRecord> {
  const { rows } = await q.query(
    `UPDATE webhook_endpoints
        SET secret_sealed = $2, previous_secret_sealed = $3, rotation_started_at = $4, updated_at = $5,
            rotation_expires_at = $6
      WHERE id = $1 RETURNING ${endpoints.columns()}`,
    [
      id,
      change.secretSealed,
      change.previousSecretSealed,
      change.rotationStartedAt,
      change.now,
      change.rotationExpiresAt,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error(`webhook endpoint ${id} vanished under its row lock`);
  return endpoints.fromRow(row);
}

/** The operator turns an endpoint back on: its failure history starts again from nothing. */
export async function enableWebhookEndpoint(
  q: Queryable,
  id: string,
  now: Date,
): Promise<WebhookEndpointRecord | null> {
  const { rows } = await q.query(
    `UPDATE webhook_endpoints
        SET status = 'enabled', failing_since = NULL, failed_deliveries_since_success = 0, updated_at = $2
      WHERE id = $1 RETURNING ${endpoints.columns()}`,
    [id, now],
  );
  return endpoints.first(rows);
}

export async function setWebhookEndpointStatus(
  q: Queryable,
  id: string,
  status: EndpointHealth,
  now: Date,
): Promise<void> {
  await q.query('UPDATE webhook_endpoints SET status = $2, updated_at = $3 WHERE id = $1', [id, status, now]);
}

/** The endpoints of one merchant's test or live data, oldest first (the dashboard's list). */
export async function listWebhookEndpointsOfTenant(
  q: Queryable,
  scope: { merchantId: string; livemode: boolean },
): Promise<WebhookEndpointRecord[]> {
  const { rows } = await q.query(
    `SELECT ${endpoints.columns()} FROM webhook_endpoints
      WHERE merchant_id = $1 AND livemode = $2 ORDER BY created_at, id`,
    [scope.merchantId, scope.livemode],
  );
  return rows.map((row) => endpoints.fromRow(row));
}

export interface WebhookEndpointListItem {
  endpoint: WebhookEndpointRecord;
  position: string;
}

/** One page of a merchant's endpoints, newest first; `limit + 1` rows tell whether more follow. */
export async function listWebhookEndpoints(
  q: Queryable,
  merchantId: string,
  page: { limit: number; after: ListPosition | null },
): Promise<WebhookEndpointListItem[]> {
  const { rows } = await q.query<Record<string, unknown> & { position: string }>(
    `SELECT ${endpoints.columns()}, ${POSITION_SQL} AS position FROM webhook_endpoints
      WHERE merchant_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::text))
      ORDER BY created_at DESC, id DESC
      LIMIT $4`,
    [merchantId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit + 1],
  );
  return rows.map((row) => ({ endpoint: endpoints.fromRow(row), position: row.position }));
}

/** Changes where an endpoint receives events and which ones (null keeps the current value). */
export async function updateWebhookEndpointTarget(
  q: Queryable,
  id: string,
  change: { url: string | null; enabledEvents: string[] | null },
  now: Date,
): Promise<WebhookEndpointRecord | null> {
  const { rows } = await q.query(
    `UPDATE webhook_endpoints
        SET url = COALESCE($2, url), enabled_events = COALESCE($3::text[], enabled_events), updated_at = $4
      WHERE id = $1 RETURNING ${endpoints.columns()}`,
    [id, change.url, change.enabledEvents, now],
  );
  return endpoints.first(rows);
}

/**
 * Closes up to `limit` rotations whose expiry has passed (the previous secret stops signing), each
 * row locked with SKIP LOCKED so that processes running the same job never wait on each other.
 * Returns the endpoints whose rotation closed.
 */
export async function closeExpiredRotations(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `WITH due AS (
       SELECT id FROM webhook_endpoints WHERE rotation_expires_at <= $1
        ORDER BY rotation_expires_at LIMIT $2 FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_endpoints w
        SET previous_secret_sealed = NULL, rotation_started_at = NULL, rotation_expires_at = NULL, updated_at = $1
       FROM due WHERE w.id = due.id
     RETURNING w.id`,
    [now, limit],
  );
  return rows.map((row) => row.id);
}
