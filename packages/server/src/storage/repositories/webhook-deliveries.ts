import type { EndpointHealth } from '../../domain/retry-schedules.ts';
import { type Queryable, rowMapping } from '../db.ts';

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface WebhookDeliveryRecord {
  id: string;
  eventId: string;
  endpointId: string;
  eventType: string;
  status: DeliveryStatus;
  attemptsMade: number;
  attemptCount: number;
  firstAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  claimToken: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

export interface WebhookAttemptRecord {
  deliveryId: string;
  attemptNumber: number;
  scheduleSlot: number | null;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  /** The headers we sent and those answered (bounded by the sender); null on older attempts. */
  requestHeaders: Record<string, string> | null;
  responseHeaders: Record<string, string> | null;
}

/** A delivery held by one worker, with everything an attempt needs. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRecord;
  /** The claim before this one was never finished: its worker died or overran its lease. */
  reclaimed: boolean;
  payload: string;
  url: string;
  livemode: boolean;
  secretSealed: string;
  previousSecretSealed: string | null;
}

const deliveryFields = rowMapping<Omit<WebhookDeliveryRecord, 'eventType'>>({
  id: 'plain',
  eventId: 'plain',
  endpointId: 'plain',
  status: 'plain',
  attemptsMade: 'plain',
  attemptCount: 'plain',
  firstAttemptAt: 'plain',
  nextAttemptAt: 'plain',
  claimToken: 'plain',
  deliveredAt: 'plain',
  createdAt: 'plain',
});

/** A delivery's columns (alias `d`) and its event's type (alias `e`: kept once, on the event). */
export const deliveryColumns = `${deliveryFields.columns('d')}, e.type AS event_type`;
export type DeliveryRow = Record<string, unknown> & { event_type: string };

export function deliveryFromRow(row: DeliveryRow): WebhookDeliveryRecord {
  return { ...deliveryFields.fromRow(row), eventType: row.event_type };
}

/** What a claim returns beside the delivery: the event's bytes and the endpoint's address and secrets. */
const claimColumns = 'e.payload, w.url, w.livemode, w.secret_sealed, w.previous_secret_sealed';
type ClaimRow = DeliveryRow & {
  payload: string;
  url: string;
  livemode: boolean;
  secret_sealed: string;
  previous_secret_sealed: string | null;
};

function claimedFromRow(row: ClaimRow, reclaimed: boolean): ClaimedDelivery {
  return {
    delivery: deliveryFromRow(row),
    reclaimed,
    payload: row.payload,
    url: row.url,
    livemode: row.livemode,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
  };
}

const attempts = rowMapping<WebhookAttemptRecord>({
  deliveryId: 'plain',
  attemptNumber: 'plain',
  scheduleSlot: 'plain',
  attemptedAt: 'plain',
  statusCode: 'plain',
  latencyMs: 'plain',
  error: 'plain',
  responseExcerpt: 'plain',
  requestHeaders: 'json',
  responseHeaders: 'json',
});

/**
 * Claims up to `limit` due deliveries for one worker: each is locked with SKIP LOCKED (so workers
 * never wait on each other or take the same row), stamped with the worker's claim token, and made
 * not due until `leaseUntil`. A worker that dies leaves the lease to expire; then the delivery is
 * due again and another worker claims it.
 */
export async function claimDueDeliveries(
  q: Queryable,
  input: { now: Date; leaseUntil: Date; claimToken: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const { rows } = await q.query<ClaimRow & { previous_claim: string | null }>(
    `WITH due AS (
       SELECT id, claim_token AS previous_claim FROM webhook_deliveries
        WHERE next_attempt_at <= $1
        ORDER BY next_attempt_at
        LIMIT $4
        FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_deliveries d
        SET next_attempt_at = $2, claim_token = $3
       FROM due, events e, webhook_endpoints w
      WHERE d.id = due.id AND e.id = d.event_id AND w.id = d.endpoint_id
     RETURNING ${deliveryColumns}, due.previous_claim, ${claimColumns}`,
    [input.now, input.leaseUntil, input.claimToken, input.limit],
  );
  return rows.map((row) => claimedFromRow(row, row.previous_claim !== null));
}

/** Claims one delivery for a manual attempt, unless a worker holds an unexpired claim on it. */
export async function claimDeliveryById(
  q: Queryable,
  input: { id: string; now: Date; leaseUntil: Date; claimToken: string },
): Promise<ClaimedDelivery | 'busy' | null> {
  const { rows } = await q.query<{ claim_token: string | null; next_attempt_at: Date | null }>(
    'SELECT claim_token, next_attempt_at FROM webhook_deliveries WHERE id = $1 FOR UPDATE',
    [input.id],
  );
  const current = rows[0];
  if (!current) return null;
  if (
    current.claim_token !== null &&
    current.next_attempt_at !== null &&
    current.next_attempt_at > input.now
  ) {
    return 'busy';
  }
  const claimed = await q.query<ClaimRow>(
    `UPDATE webhook_deliveries d
        SET next_attempt_at = $2, claim_token = $3
       FROM events e, webhook_endpoints w
      WHERE d.id = $1 AND e.id = d.event_id AND w.id = d.endpoint_id
     RETURNING ${deliveryColumns}, ${claimColumns}`,
    [input.id, input.leaseUntil, input.claimToken],
  );
  const row = claimed.rows[0];
  return row ? claimedFromRow(row, current.claim_token !== null) : null;
}

/** An endpoint's failure history after attempts were recorded. */
export interface EndpointHistory {
  status: EndpointHealth;
  failingSince: Date | null;
  failedDeliveriesSinceSuccess: number;
}

/** The outcome of one attempt, to end the claim it was made under. */
export interface FinishClaimInput {
  deliveryId: string;
  claimToken: string;
  status: DeliveryStatus;
  attemptsMade: number;
  firstAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  attempt: Omit<WebhookAttemptRecord, 'deliveryId' | 'attemptNumber'>;
  /** True for a 2xx: the endpoint's failure history is cleared. */
  succeeded: boolean;
  /** True when this attempt moved the delivery to FAILED. */
  deliveryFailed: boolean;
}

/**
 * What ending a claim wrote: the attempt's number, and its endpoint's failure history after the
 * whole batch (the same object for every outcome of one endpoint), or null when the batch did not
 * change it.
 */
export interface FinishedClaim {
  attemptNumber: number;
  endpoint: EndpointHistory | null;
}

// The endpoint's history after a batch is that of its outcomes applied in order: the last success
// clears it, and only the failures after that success count. Aggregated per endpoint, because one
// statement may update a row only once.
const FINISH_CLAIMS_SQL = `
WITH input AS (
  SELECT * FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (
      delivery_id text, claim_token text, status text, attempts_made int, first_attempt_at timestamptz,
      next_attempt_at timestamptz, delivered_at timestamptz, schedule_slot int, attempted_at timestamptz,
      status_code int, latency_ms int, error text, response_excerpt text, succeeded boolean,
      delivery_failed boolean, request_headers jsonb, response_headers jsonb))
    WITH ORDINALITY AS i (delivery_id, claim_token, status, attempts_made, first_attempt_at, next_attempt_at,
                          delivered_at, schedule_slot, attempted_at, status_code, latency_ms, error,
                          response_excerpt, succeeded, delivery_failed, request_headers, response_headers, seq)
), d AS (
  UPDATE webhook_deliveries w
     SET status = i.status, attempts_made = i.attempts_made, first_attempt_at = i.first_attempt_at,
         next_attempt_at = i.next_attempt_at, delivered_at = COALESCE(i.delivered_at, w.delivered_at),
         attempt_count = w.attempt_count + 1, claim_token = NULL, updated_at = $2
    FROM input i
   WHERE w.id = i.delivery_id AND w.claim_token = i.claim_token
  RETURNING i.seq, w.endpoint_id, w.attempt_count
), a AS (
  INSERT INTO webhook_attempts (delivery_id, attempt_number, schedule_slot, attempted_at, status_code,
                                latency_ms, error, response_excerpt, request_headers, response_headers)
  SELECT i.delivery_id, d.attempt_count, i.schedule_slot, i.attempted_at, i.status_code, i.latency_ms,
         i.error, i.response_excerpt, i.request_headers, i.response_headers
    FROM d JOIN input i ON i.seq = d.seq
), outcomes AS (
  SELECT d.endpoint_id, i.seq, i.succeeded, i.attempted_at, i.delivery_failed,
         max(i.seq) FILTER (WHERE i.succeeded) OVER (PARTITION BY d.endpoint_id) AS last_success
    FROM d JOIN input i ON i.seq = d.seq
), per_endpoint AS (
  SELECT endpoint_id, last_success IS NOT NULL AS cleared,
         min(attempted_at) FILTER (WHERE seq > COALESCE(last_success, 0)) AS first_failure,
         count(*) FILTER (WHERE delivery_failed AND seq > COALESCE(last_success, 0))::int AS failed_deliveries
    FROM outcomes
   GROUP BY endpoint_id, last_success
), e AS (
  UPDATE webhook_endpoints w
     SET failing_since = CASE WHEN p.cleared THEN p.first_failure ELSE COALESCE(w.failing_since, p.first_failure) END,
         failed_deliveries_since_success =
           CASE WHEN p.cleared THEN 0 ELSE w.failed_deliveries_since_success END + p.failed_deliveries,
         status = CASE WHEN p.cleared AND w.status <> 'disabled' THEN 'enabled' ELSE w.status END,
         updated_at = $2
    FROM per_endpoint p
   WHERE w.id = p.endpoint_id
     -- Successes alone on an endpoint without history leave its row untouched (the common case).
     AND (p.first_failure IS NOT NULL OR w.failing_since IS NOT NULL OR w.failed_deliveries_since_success <> 0)
  RETURNING w.id, w.status, w.failing_since, w.failed_deliveries_since_success
)
SELECT d.seq::int AS seq, d.endpoint_id, d.attempt_count AS attempt_number, e.status, e.failing_since, e.failed_deliveries_since_success
  FROM d LEFT JOIN e ON e.id = d.endpoint_id`;

/**
 * Ends many claims with their attempts' outcomes in ONE statement (atomic without a transaction,
 * one round trip and one commit for the whole batch): for each outcome whose claim is still this
 * worker's, the delivery's new state and the attempt row; and once per endpoint its failure
 * history, as if the outcomes had been recorded one by one in the order given. An outcome whose
 * claim was lost (its lease ran out and another worker took the delivery) writes nothing and gets
 * null, while the others are recorded.
 */
export async function finishClaims(
  q: Queryable,
  inputs: readonly FinishClaimInput[],
  now: Date,
): Promise<(FinishedClaim | null)[]> {
  if (inputs.length === 0) return [];
  // The whole batch is one JSON parameter: JSON.stringify is native, where 17 array parameters
  // were each escaped element by element in JavaScript by the driver. Instants become ISO text
  // (Date's toJSON) and the headers nested objects, so nothing is encoded twice.
  const batch = inputs.map((i) => ({
    delivery_id: i.deliveryId,
    claim_token: i.claimToken,
    status: i.status,
    attempts_made: i.attemptsMade,
    first_attempt_at: i.firstAttemptAt,
    next_attempt_at: i.nextAttemptAt,
    delivered_at: i.deliveredAt,
    schedule_slot: i.attempt.scheduleSlot,
    attempted_at: i.attempt.attemptedAt,
    status_code: i.attempt.statusCode,
    latency_ms: i.attempt.latencyMs,
    error: i.attempt.error,
    response_excerpt: i.attempt.responseExcerpt,
    succeeded: i.succeeded,
    delivery_failed: i.deliveryFailed,
    request_headers: i.attempt.requestHeaders,
    response_headers: i.attempt.responseHeaders,
  }));
  const { rows } = await q.query<{
    seq: number;
    endpoint_id: string;
    attempt_number: number;
    status: EndpointHealth | null;
    failing_since: Date | null;
    failed_deliveries_since_success: number | null;
  }>(FINISH_CLAIMS_SQL, [JSON.stringify(batch), now]);
  const results: (FinishedClaim | null)[] = inputs.map(() => null);
  const histories = new Map<string, EndpointHistory>();
  for (const row of rows) {
    let endpoint: EndpointHistory | null = null;
    if (row.status !== null) {
      endpoint = histories.get(row.endpoint_id) ?? {
        status: row.status,
        failingSince: row.failing_since,
        failedDeliveriesSinceSuccess: row.failed_deliveries_since_success ?? 0,
      };
      histories.set(row.endpoint_id, endpoint);
    }
    results[row.seq - 1] = { attemptNumber: row.attempt_number, endpoint };
  }
  return results;
}

export async function findDelivery(q: Queryable, id: string): Promise<WebhookDeliveryRecord | null> {
  const { rows } = await q.query<DeliveryRow>(
    `SELECT ${deliveryColumns} FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
      WHERE d.id = $1`,
    [id],
  );
  const row = rows[0];
  return row ? deliveryFromRow(row) : null;
}

/** An endpoint's deliveries, newest first. */
export async function listDeliveries(
  q: Queryable,
  endpointId: string,
  limit: number,
): Promise<WebhookDeliveryRecord[]> {
  const { rows } = await q.query<DeliveryRow>(
    `SELECT ${deliveryColumns} FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
      WHERE d.endpoint_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
    [endpointId, limit],
  );
  return rows.map(deliveryFromRow);
}

/** The attempts of some deliveries, each delivery's in the order they were made. */
export async function listAttempts(
  q: Queryable,
  deliveryIds: readonly string[],
): Promise<Map<string, WebhookAttemptRecord[]>> {
  const byDelivery = new Map<string, WebhookAttemptRecord[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return byDelivery;
  const { rows } = await q.query(
    `SELECT ${attempts.columns()}
       FROM webhook_attempts WHERE delivery_id = ANY ($1::text[]) ORDER BY delivery_id, attempt_number`,
    [deliveryIds],
  );
  for (const row of rows) {
    const attempt = attempts.fromRow(row);
    byDelivery.get(attempt.deliveryId)?.push(attempt);
  }
  return byDelivery;
}

/**
 * Makes every FAILED delivery of an endpoint created at or after `since` due for one manual
 * attempt now (they stay FAILED until one succeeds). Deliveries a worker holds are left alone.
 */
export async function queueFailedForResend(
  q: Queryable,
  input: { endpointId: string; since: Date; now: Date },
): Promise<number> {
  const result = await q.query(
    `UPDATE webhook_deliveries SET next_attempt_at = $3, updated_at = $3
      WHERE endpoint_id = $1 AND status = 'FAILED' AND created_at >= $2 AND claim_token IS NULL`,
    [input.endpointId, input.since, input.now],
  );
  return result.rowCount;
}
