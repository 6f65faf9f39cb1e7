import type { EndpointHealth } from '../../webhooks/retry-schedule.ts';
import type { Queryable } from '../db.ts';

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

interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts_made: number;
  attempt_count: number;
  first_attempt_at: Date | null;
  next_attempt_at: Date | null;
  claim_token: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

interface AttemptRow {
  delivery_id: string;
  attempt_number: number;
  schedule_slot: number | null;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

const deliveryColumns = (d: string, e: string) =>
  `${d}.id, ${d}.event_id, ${d}.endpoint_id, ${e}.type AS event_type, ${d}.status, ${d}.attempts_made,
   ${d}.attempt_count, ${d}.first_attempt_at, ${d}.next_attempt_at, ${d}.claim_token, ${d}.delivered_at,
   ${d}.created_at`;

function deliveryFromRow(row: DeliveryRow): WebhookDeliveryRecord {
  return {
    id: row.id,
    eventId: row.event_id,
    endpointId: row.endpoint_id,
    eventType: row.event_type,
    status: row.status,
    attemptsMade: row.attempts_made,
    attemptCount: row.attempt_count,
    firstAttemptAt: row.first_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    claimToken: row.claim_token,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
  };
}

function attemptFromRow(row: AttemptRow): WebhookAttemptRecord {
  return {
    deliveryId: row.delivery_id,
    attemptNumber: row.attempt_number,
    scheduleSlot: row.schedule_slot,
    attemptedAt: row.attempted_at,
    statusCode: row.status_code,
    latencyMs: row.latency_ms,
    error: row.error,
    responseExcerpt: row.response_excerpt,
  };
}

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
  const { rows } = await q.query<
    DeliveryRow & {
      previous_claim: string | null;
      payload: string;
      url: string;
      livemode: boolean;
      secret_sealed: string;
      previous_secret_sealed: string | null;
    }
  >(
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
     RETURNING ${deliveryColumns('d', 'e')}, due.previous_claim, e.payload, w.url, w.livemode,
               w.secret_sealed, w.previous_secret_sealed`,
    [input.now, input.leaseUntil, input.claimToken, input.limit],
  );
  return rows.map((row) => ({
    delivery: deliveryFromRow(row),
    reclaimed: row.previous_claim !== null,
    payload: row.payload,
    url: row.url,
    livemode: row.livemode,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
  }));
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
  const claimed = await q.query<
    DeliveryRow & {
      payload: string;
      url: string;
      livemode: boolean;
      secret_sealed: string;
      previous_secret_sealed: string | null;
    }
  >(
    `UPDATE webhook_deliveries d
        SET next_attempt_at = $2, claim_token = $3
       FROM events e, webhook_endpoints w
      WHERE d.id = $1 AND e.id = d.event_id AND w.id = d.endpoint_id
     RETURNING ${deliveryColumns('d', 'e')}, e.payload, w.url, w.livemode, w.secret_sealed, w.previous_secret_sealed`,
    [input.id, input.leaseUntil, input.claimToken],
  );
  const row = claimed.rows[0];
  if (!row) return null;
  return {
    delivery: deliveryFromRow(row),
    reclaimed: current.claim_token !== null,
    payload: row.payload,
    url: row.url,
    livemode: row.livemode,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
  };
}

/** An endpoint's failure history after an attempt was recorded. */
export interface EndpointHistory {
  status: EndpointHealth;
  failingSince: Date | null;
  failedDeliveriesSinceSuccess: number;
}

/**
 * Ends a claim with the attempt's outcome, in ONE statement (so atomic without a transaction, and
 * one round trip per attempt): the delivery's new state, the attempt row, and the endpoint's
 * failure history (a success clears it, touching the row only if there was one; a failure opens
 * it and counts a delivery that just became FAILED). Returns null when the claim is no longer this
 * worker's (its lease ran out and another worker took the delivery): then nothing is written.
 * `endpoint` is the history after a change, or null when it did not change.
 */
export async function finishClaim(
  q: Queryable,
  input: {
    deliveryId: string;
    claimToken: string;
    status: DeliveryStatus;
    attemptsMade: number;
    firstAttemptAt: Date | null;
    nextAttemptAt: Date | null;
    deliveredAt: Date | null;
    now: Date;
    attempt: Omit<WebhookAttemptRecord, 'deliveryId' | 'attemptNumber'>;
    /** True for a 2xx: the endpoint's failure history is cleared. */
    succeeded: boolean;
    /** True when this attempt moved the delivery to FAILED. */
    deliveryFailed: boolean;
  },
): Promise<{ attemptNumber: number; endpoint: EndpointHistory | null } | null> {
  const a = input.attempt;
  const { rows } = await q.query<{
    attempt_number: number | null;
    status: EndpointHealth | null;
    failing_since: Date | null;
    failed_deliveries_since_success: number | null;
  }>(
    `WITH d AS (
       UPDATE webhook_deliveries
          SET status = $3, attempts_made = $4, first_attempt_at = $5, next_attempt_at = $6,
              delivered_at = COALESCE($7, delivered_at), attempt_count = attempt_count + 1,
              claim_token = NULL, updated_at = $8
        WHERE id = $1 AND claim_token = $2
        RETURNING id, endpoint_id, attempt_count
     ), a AS (
       INSERT INTO webhook_attempts (delivery_id, attempt_number, schedule_slot, attempted_at, status_code,
                                     latency_ms, error, response_excerpt)
       SELECT id, attempt_count, $9, $10, $11, $12, $13, $14 FROM d
       RETURNING attempt_number
     ), e AS (
       UPDATE webhook_endpoints w
          SET failing_since = CASE WHEN $15::boolean THEN NULL ELSE COALESCE(w.failing_since, $10) END,
              failed_deliveries_since_success =
                CASE WHEN $15::boolean THEN 0 ELSE w.failed_deliveries_since_success + $16 END,
              status = CASE WHEN $15::boolean AND w.status <> 'disabled' THEN 'enabled' ELSE w.status END,
              updated_at = $8
         FROM d
        WHERE w.id = d.endpoint_id
          AND (NOT $15::boolean OR w.failing_since IS NOT NULL OR w.failed_deliveries_since_success <> 0)
        RETURNING w.status, w.failing_since, w.failed_deliveries_since_success
     )
     SELECT (SELECT attempt_number FROM a) AS attempt_number, e.status, e.failing_since,
            e.failed_deliveries_since_success
       FROM (SELECT 1) AS one LEFT JOIN e ON true`,
    [
      input.deliveryId,
      input.claimToken,
      input.status,
      input.attemptsMade,
      input.firstAttemptAt,
      input.nextAttemptAt,
      input.deliveredAt,
      input.now,
      a.scheduleSlot,
      a.attemptedAt,
      a.statusCode,
      a.latencyMs,
      a.error,
      a.responseExcerpt,
      input.succeeded,
      input.deliveryFailed ? 1 : 0,
    ],
  );
  const row = rows[0];
  if (!row || row.attempt_number === null) return null;
  return {
    attemptNumber: row.attempt_number,
    endpoint:
      row.status === null
        ? null
        : {
            status: row.status,
            failingSince: row.failing_since,
            failedDeliveriesSinceSuccess: row.failed_deliveries_since_success ?? 0,
          },
  };
}

export async function findDelivery(q: Queryable, id: string): Promise<WebhookDeliveryRecord | null> {
  const { rows } = await q.query<DeliveryRow>(
    `SELECT ${deliveryColumns('d', 'e')} FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
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
    `SELECT ${deliveryColumns('d', 'e')} FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
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
  const { rows } = await q.query<AttemptRow>(
    `SELECT delivery_id, attempt_number, schedule_slot, attempted_at, status_code, latency_ms, error, response_excerpt
       FROM webhook_attempts WHERE delivery_id = ANY ($1::text[]) ORDER BY delivery_id, attempt_number`,
    [deliveryIds],
  );
  for (const row of rows) byDelivery.get(row.delivery_id)?.push(attemptFromRow(row));
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
