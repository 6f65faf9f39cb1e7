import type { EndpointHealth } from '../../domain/webhook-retry-schedule.ts';
import { type Queryable, rowMapping } from '../db.ts';

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

const endpoints = rowMapping<WebhookEndpointRecord>({
  id: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  url: 'plain',
  enabledEvents: 'plain',
  secretSealed: 'plain',
  previousSecretSealed: 'plain',
  rotationStartedAt: 'plain',
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
    now: Date;
  },
): Promise<WebhookEndpointRecord> {
  const { rows } = await q.query(
    `UPDATE webhook_endpoints
        SET secret_sealed = $2, previous_secret_sealed = $3, rotation_started_at = $4, updated_at = $5
      WHERE id = $1 RETURNING ${endpoints.columns()}`,
    [id, change.secretSealed, change.previousSecretSealed, change.rotationStartedAt, change.now],
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
