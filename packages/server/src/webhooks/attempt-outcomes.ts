import { endpointHealth, nextAttemptAt } from '../domain/retry-schedules.ts';
import {
  type ClaimedDelivery,
  type DeliveryStatus,
  type EndpointHistory,
  type FinishClaimInput,
  finishClaims,
} from '../storage/repositories/webhook-deliveries.ts';
import { findWebhookEndpoint, setWebhookEndpointStatus } from '../storage/repositories/webhook-endpoints.ts';
import type { DeliveryContext } from './delivery-context.ts';
import type { AttemptOutcome, WebhookSender } from './sender.ts';
import { signPayload } from './signing.ts';

/** The few logger methods the worker uses (pino's logger has them). */
export interface WorkerLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** An attempt that was made and awaits recording under the claim it was made with. */
export interface MadeAttempt {
  claimed: ClaimedDelivery;
  claimToken: string;
  attemptedAt: Date;
  outcome: AttemptOutcome;
  manual: boolean;
}

/**
 * The new state of a delivery after an attempt. Scheduled attempts follow the six-slot schedule
 * anchored on the first attempt; a manual attempt (of a FAILED or DELIVERED delivery, or one made
 * by the operator ahead of schedule) uses no slot and never makes a delivery's state worse.
 */
export function stateAfterAttempt(
  claimed: ClaimedDelivery,
  attemptedAt: Date,
  delivered: boolean,
  manual: boolean,
): {
  status: DeliveryStatus;
  attemptsMade: number;
  firstAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  scheduleSlot: number | null;
} {
  const d = claimed.delivery;
  if (manual || d.status !== 'PENDING') {
    const status: DeliveryStatus = delivered ? 'DELIVERED' : d.status;
    return {
      status,
      attemptsMade: d.attemptsMade,
      firstAttemptAt: d.firstAttemptAt,
      nextAttemptAt:
        status === 'PENDING' ? nextAttemptAt(d.firstAttemptAt ?? attemptedAt, d.attemptsMade) : null,
      scheduleSlot: null,
    };
  }
  const slot = d.attemptsMade + 1;
  const first = d.firstAttemptAt ?? attemptedAt;
  const next = delivered ? null : nextAttemptAt(first, slot);
  return {
    status: delivered ? 'DELIVERED' : next ? 'PENDING' : 'FAILED',
    attemptsMade: slot,
    firstAttemptAt: first,
    nextAttemptAt: next,
    scheduleSlot: slot,
  };
}

/**
 * Signs the stored payload with the endpoint's secret(s) as they are now (two `v1` while a
 * rotation is open) and POSTs exactly those bytes. `openSecret` opens a sealed secret (the worker
 * passes a cache); it throws for a secret that cannot be opened, and then no attempt is made.
 */
export async function makeAttempt(
  ctx: DeliveryContext,
  sender: WebhookSender,
  claimed: ClaimedDelivery,
  openSecret: (endpointId: string, sealed: string) => string,
): Promise<{ attemptedAt: Date; outcome: AttemptOutcome }> {
  const endpointId = claimed.delivery.endpointId;
  const secrets = [openSecret(endpointId, claimed.secretSealed)];
  if (claimed.previousSecretSealed) secrets.push(openSecret(endpointId, claimed.previousSecretSealed));
  const attemptedAt = ctx.clock.now();
  // The payload is encoded to UTF-8 once: the HMAC and the socket then take the same bytes (a
  // string was encoded three times: for its Content-Length, for the HMAC and for the write).
  const payload = Buffer.from(claimed.payload, 'utf8');
  // The receiver compares `t` with its own clock: real time, even when the test clock has moved.
  const signature = signPayload({
    payload,
    secrets,
    timestampSeconds: Math.floor(ctx.wallClock.now().getTime() / 1000),
  });
  const outcome = await sender.send({ url: claimed.url, livemode: claimed.livemode, payload, signature });
  return { attemptedAt, outcome };
}

function finishInput(made: MadeAttempt): FinishClaimInput {
  const { claimed, attemptedAt, outcome } = made;
  const next = stateAfterAttempt(claimed, attemptedAt, outcome.delivered, made.manual);
  return {
    deliveryId: claimed.delivery.id,
    claimToken: made.claimToken,
    status: next.status,
    attemptsMade: next.attemptsMade,
    firstAttemptAt: next.firstAttemptAt,
    nextAttemptAt: next.nextAttemptAt,
    deliveredAt: outcome.delivered ? attemptedAt : null,
    attempt: {
      scheduleSlot: next.scheduleSlot,
      attemptedAt,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      responseExcerpt: outcome.responseExcerpt,
      requestHeaders: outcome.requestHeaders ?? null,
      responseHeaders: outcome.responseHeaders ?? null,
    },
    succeeded: outcome.delivered,
    deliveryFailed: next.status === 'FAILED' && claimed.delivery.status === 'PENDING',
  };
}

// Two flushes touching the same endpoints in another order can deadlock; PostgreSQL then cancels
// one statement whole, so writing it again is safe.
const DEADLOCK_DETECTED = '40P01';
const WRITE_TRIES = 3;

async function finishWithRetry(ctx: DeliveryContext, inputs: FinishClaimInput[]) {
  for (let tryNumber = 1; ; tryNumber += 1) {
    try {
      return await finishClaims(ctx.db, inputs, ctx.clock.now());
    } catch (error) {
      const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : null;
      if (code !== DEADLOCK_DETECTED || tryNumber >= WRITE_TRIES) throw error;
    }
  }
}

/**
 * Moves an endpoint whose failure history crossed a threshold to its new health (failing: the
 * operator is warned; disabled: no new deliveries), and queues the notice its owners and
 * developers get, in the same transaction: the mail outbox holds it from the moment the change
 * commits. `now` is the last attempt that changed it.
 */
async function applyHealth(
  ctx: DeliveryContext,
  endpointId: string,
  history: EndpointHistory,
  now: Date,
  logger: WorkerLogger,
): Promise<void> {
  if (history.status === 'disabled') return;
  const health = endpointHealth({
    now,
    failingSince: history.failingSince,
    failedDeliveriesSinceLastSuccess: history.failedDeliveriesSinceSuccess,
  });
  const notice = ctx.endpointNotices.due({ health, failingSince: history.failingSince, now });
  if (health === history.status && notice === null) return;
  await ctx.db.transaction(async (tx) => {
    if (health !== history.status) await setWebhookEndpointStatus(tx, endpointId, health, ctx.clock.now());
    const endpoint = notice && history.failingSince ? await findWebhookEndpoint(tx, endpointId) : null;
    if (notice && endpoint && history.failingSince) {
      await ctx.endpointNotices.queue(tx, {
        notice,
        endpoint,
        failingSince: history.failingSince,
        failedDeliveries: history.failedDeliveriesSinceSuccess,
      });
    }
  });
  if (health === history.status) return;
  const details = {
    event: `webhook_endpoint.${health}`,
    endpoint_id: endpointId,
    failing_since: history.failingSince?.toISOString(),
    failed_deliveries: history.failedDeliveriesSinceSuccess,
  };
  if (health === 'failing') {
    logger.warn(
      details,
      'webhook endpoint has failed for 24 hours; it is disabled after 3 days and 10 FAILED deliveries',
    );
  } else if (health === 'disabled') {
    logger.error(details, 'webhook endpoint disabled: it gets no new deliveries');
  }
}

/**
 * Counts a recorded attempt (its state after the attempt is the one written: `input`); the first
 * scheduled attempt of a delivery also measures its lag.
 */
function countAttempt(
  ctx: DeliveryContext,
  made: MadeAttempt,
  input: FinishClaimInput,
  attemptNumber: number,
): void {
  const delivery = made.claimed.delivery;
  const first = !made.manual && delivery.status === 'PENDING' && delivery.attemptsMade === 0;
  ctx.metrics.recordWebhookAttempt({
    attemptNumber,
    manual: made.manual,
    outcome: made.outcome.delivered ? 'delivered' : input.status === 'FAILED' ? 'failed' : 'retrying',
    firstLagSeconds: first ? (made.attemptedAt.getTime() - delivery.createdAt.getTime()) / 1000 : null,
  });
}

/**
 * Records attempts, in order, with one statement: each delivery's new state and attempt row, and
 * each endpoint's failure history; then the health of every endpoint a failure in the batch
 * touched. Returns each attempt's number, or null where the claim had been lost (nothing written
 * for that attempt).
 */
export async function recordAttempts(
  ctx: DeliveryContext,
  attempts: readonly MadeAttempt[],
  logger: WorkerLogger,
): Promise<(number | null)[]> {
  const inputs = attempts.map(finishInput);
  const finished = await finishWithRetry(ctx, inputs);
  const changed = new Map<string, { history: EndpointHistory; lastFailureAt: Date }>();
  finished.forEach((f, i) => {
    const made = attempts[i];
    if (!f?.endpoint || !made || made.outcome.delivered) return;
    const endpointId = made.claimed.delivery.endpointId;
    const seen = changed.get(endpointId);
    if (!seen || seen.lastFailureAt < made.attemptedAt) {
      changed.set(endpointId, { history: f.endpoint, lastFailureAt: made.attemptedAt });
    }
  });
  finished.forEach((f, i) => {
    const made = attempts[i];
    const input = inputs[i];
    if (f && made && input) countAttempt(ctx, made, input, f.attemptNumber);
  });
  for (const [endpointId, { history, lastFailureAt }] of changed) {
    await applyHealth(ctx, endpointId, history, lastFailureAt, logger);
  }
  return finished.map((f) => f?.attemptNumber ?? null);
}

// The worker records attempts in batches (one statement each): the batching lives here, next to
// the write it batches.

export interface OutcomeBatcherOptions {
  /** Outcomes written by one statement at most; a full batch is written at once. */
  maxBatch: number;
  /** How long the first outcome of a batch waits for others before the batch is written anyway. */
  windowMs: number;
}

export interface OutcomeBatcher<I> {
  /** Queues an item; it is written with its batch, and `written` is told. */
  add(item: I): void;
  /** Writes what is queued now (the caller knows no more outcomes are coming soon). */
  flush(): void;
}

/**
 * Groups items into batches for one write each: a batch is written when it is full, when the
 * caller says it is complete, or `windowMs` after its first item, whichever comes first. Batches
 * are written independently (several may be in flight on a pool). `written` is told once per
 * batch: its items with their results, or with null and the error when the write failed.
 * (One callback per batch, not a promise per item: the worker writes thousands a second.)
 */
export function createOutcomeBatcher<I, R>(
  write: (items: I[]) => Promise<R[]>,
  options: OutcomeBatcherOptions,
  written: (items: I[], results: R[] | null, error: unknown) => void,
): OutcomeBatcher<I> {
  let pending: I[] = [];
  let timer: NodeJS.Timeout | null = null;

  function flush(): void {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    write(batch).then(
      (results) => written(batch, results, null),
      (error: unknown) => written(batch, null, error),
    );
  }

  return {
    add(item) {
      pending.push(item);
      if (pending.length >= options.maxBatch) flush();
      else if (!timer) timer = setTimeout(flush, options.windowMs);
    },
    flush,
  };
}
