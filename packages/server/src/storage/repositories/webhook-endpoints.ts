import { type ListPosition, POSITION_SQL } from '../../domain/list-cursor.ts';
import type { EndpointHealth } from '../../webhooks/retry-schedule.ts';
import type { Queryable } from '../db.ts';

export interface WebhookEndpointRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  url: string;
  enabledEvents: string[];
  secretSealed: string;
  previousSecretSealed: string | null;
  rotationStartedAt: Date | null;
  status: EndpointHealth;
  failingSince: Date | null;
  failedDeliveriesSinceSuccess: number;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: string;
  merchant_id: string;
  livemode: boolean;
  url: string;
  enabled_events: string[];
  secret_sealed: string;
  previous_secret_sealed: string | null;
  rotation_started_at: Date | null;
  status: EndpointHealth;
  failing_since: Date | null;
  failed_deliveries_since_success: number;
  created_at: Date;
  updated_at: Date;
}

const columns = `id, merchant_id, livemode, url, enabled_events, secret_sealed, previous_secret_sealed,
  rotation_started_at, status, failing_since, failed_deliveries_since_success, created_at, updated_at`;

function fromRow(row: Row): WebhookEndpointRecord {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    url: row.url,
    enabledEvents: row.enabled_events,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    rotationStartedAt: row.rotation_started_at,
    status: row.status,
    failingSince: row.failing_since,
    failedDeliveriesSinceSuccess: row.failed_deliveries_since_success,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function insertWebhookEndpoint(q: Queryable, endpoint: WebhookEndpointRecord): Promise<void> {
  await q.query(
    `INSERT INTO webhook_endpoints (${columns})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      endpoint.id,
      endpoint.merchantId,
      endpoint.livemode,
      endpoint.url,
      endpoint.enabledEvents,
      endpoint.secretSealed,
      endpoint.previousSecretSealed,
      endpoint.rotationStartedAt,
      endpoint.status,
      endpoint.failingSince,
      endpoint.failedDeliveriesSinceSuccess,
      endpoint.createdAt,
      endpoint.updatedAt,
    ],
  );
}

export async function findWebhookEndpoint(
  q: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebhookEndpointRecord | null> {
  const { rows } = await q.query<Row>(
    `SELECT ${columns} FROM webhook_endpoints WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  const row = rows[0];
  return row ? fromRow(row) : null;
}

/** Writes the secrets of a rotation step (open: two sealed secrets; closed: previous is null). */
export async function updateWebhookEndpointSecrets(
  q: Queryable,
  id: string,
  change: {
    secretSealed: string;
    previousSecretSealed: string | null;
    rotationStartedAt: Date | null;
    now: Date;
  },
): Promise<WebhookEndpointRecord> {
  const { rows } = await q.query<Row>(
    `UPDATE webhook_endpoints
        SET secret_sealed = $2, previous_secret_sealed = $3, rotation_started_at = $4, updated_at = $5
      WHERE id = $1 RETURNING ${columns}`,
    [id, change.secretSealed, change.previousSecretSealed, change.rotationStartedAt, change.now],
  );
  const row = rows[0];
  if (!row) throw new Error(`webhook endpoint ${id} vanished under its row lock`);
  return fromRow(row);
}

/** The operator turns an endpoint back on: its failure history starts again from nothing. */
export async function enableWebhookEndpoint(
  q: Queryable,
  id: string,
  now: Date,
): Promise<WebhookEndpointRecord | null> {
  const { rows } = await q.query<Row>(
    `UPDATE webhook_endpoints
        SET status = 'enabled', failing_since = NULL, failed_deliveries_since_success = 0, updated_at = $2
      WHERE id = $1 RETURNING ${columns}`,
    [id, now],
  );
  const row = rows[0];
  return row ? fromRow(row) : null;
}

export async function setWebhookEndpointStatus(
  q: Queryable,
  id: string,
  status: EndpointHealth,
  now: Date,
): Promise<void> {
  await q.query('UPDATE webhook_endpoints SET status = $2, updated_at = $3 WHERE id = $1', [id, status, now]);
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
  const { rows } = await q.query<Row & { position: string }>(
    `SELECT ${columns}, ${POSITION_SQL} AS position FROM webhook_endpoints
      WHERE merchant_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::text))
      ORDER BY created_at DESC, id DESC
      LIMIT $4`,
    [merchantId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit + 1],
  );
  return rows.map((row) => ({ endpoint: fromRow(row), position: row.position }));
}

/** Changes where an endpoint receives events and which ones (null keeps the current value). */
export async function updateWebhookEndpointTarget(
  q: Queryable,
  id: string,
  change: { url: string | null; enabledEvents: string[] | null },
  now: Date,
): Promise<WebhookEndpointRecord | null> {
  const { rows } = await q.query<Row>(
    `UPDATE webhook_endpoints
        SET url = COALESCE($2, url), enabled_events = COALESCE($3::text[], enabled_events), updated_at = $4
      WHERE id = $1 RETURNING ${columns}`,
    [id, change.url, change.enabledEvents, now],
  );
  const row = rows[0];
  return row ? fromRow(row) : null;
}
