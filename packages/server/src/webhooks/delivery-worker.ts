import type { AppContext } from '../app/context.ts';
import { randomBase62 } from '../domain/ids.ts';
import { EVENTS_CHANNEL } from '../storage/repositories/events.ts';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  type DeliveryStatus,
  finishClaim,
} from '../storage/repositories/webhook-deliveries.ts';
import { setWebhookEndpointStatus } from '../storage/repositories/webhook-endpoints.ts';
import { endpointHealth, nextAttemptAt } from './retry-schedule.ts';
import type { AttemptOutcome, SenderOptions, WebhookSender } from './sender.ts';
import { createWebhookSender } from './sender.ts';
import { signPayload } from './signing.ts';

/** The few logger methods the worker uses (pino's logger has them). */
export interface WorkerLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export const silentLogger: WorkerLogger = { info() {}, warn() {}, error() {} };

export interface DeliveryWorkerOptions extends SenderOptions {
  /** How long a claim is held; longer than the attempt time-out, so a live worker always finishes first. */
  leaseSeconds?: number;
  /** Deliveries claimed by one statement. */
  batchSize?: number;
  /** Attempts in flight at once in this process. */
  concurrency?: number;
  /** The fallback poll, for retries coming due and for a missed notification. */
  pollIntervalMs?: number;
  logger?: WorkerLogger;
  /** A sender to use instead of a new one (the worker then does not close it). */
  sender?: WebhookSender;
}

export interface DeliveryWorker {
  /** Claims and attempts everything due now, batch after batch; resolves with how many were attempted. */
  runOnce(): Promise<number>;
  /** Runs in the background: woken by every committed event (LISTEN) and by the fallback poll. */
  start(): Promise<void>;
  /** Looks for due work now (after the test clock moved, for example). */
  wake(): void;
  /** Stops claiming, waits for attempts in flight to be recorded, and closes its connections. */
  stop(): Promise<void>;
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
 * Records an attempt: the delivery's new state, the attempt row and the endpoint's failure history
 * in one statement; then, if the history crossed a threshold, the endpoint's health (failing:
 * warn the operator; disabled: no new deliveries). Returns the attempt number, or null when the
 * claim had been lost (nothing written).
 */
async function recordAttempt(
  ctx: AppContext,
  claimed: ClaimedDelivery,
  claimToken: string,
  attemptedAt: Date,
  outcome: AttemptOutcome,
  manual: boolean,
  logger: WorkerLogger,
): Promise<number | null> {
  const next = stateAfterAttempt(claimed, attemptedAt, outcome.delivered, manual);
  const endpointId = claimed.delivery.endpointId;
  const now = ctx.clock.now();
  const finished = await finishClaim(ctx.db, {
    deliveryId: claimed.delivery.id,
    claimToken,
    status: next.status,
    attemptsMade: next.attemptsMade,
    firstAttemptAt: next.firstAttemptAt,
    nextAttemptAt: next.nextAttemptAt,
    deliveredAt: outcome.delivered ? attemptedAt : null,
    now,
    attempt: {
      scheduleSlot: next.scheduleSlot,
      attemptedAt,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      responseExcerpt: outcome.responseExcerpt,
    },
    succeeded: outcome.delivered,
    deliveryFailed: next.status === 'FAILED' && claimed.delivery.status === 'PENDING',
  });
  if (finished === null) return null;
  const history = finished.endpoint;
  if (history && !outcome.delivered && history.status !== 'disabled') {
    const health = endpointHealth({
      now: attemptedAt,
      failingSince: history.failingSince,
      failedDeliveriesSinceLastSuccess: history.failedDeliveriesSinceSuccess,
    });
    if (health !== history.status) {
      await setWebhookEndpointStatus(ctx.db, endpointId, health, now);
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
      } else {
        logger.error(details, 'webhook endpoint disabled: it gets no new deliveries');
      }
    }
  }
  return finished.attemptNumber;
}

/**
 * Makes one attempt of a claimed delivery: signs the stored payload with the endpoint's secret(s)
 * as they are now (two `v1` while a rotation is open), POSTs exactly those bytes, and records the
 * outcome. A secret that cannot be opened (wrong master key) is an operator fault, not the
 * merchant's: no attempt is recorded and the claim's lease runs out, so it is tried again later.
 */
export async function attemptDelivery(
  ctx: AppContext,
  sender: WebhookSender,
  claimed: ClaimedDelivery,
  claimToken: string,
  options: { manual: boolean; logger: WorkerLogger },
): Promise<{ attemptNumber: number | null; outcome: AttemptOutcome }> {
  const endpointId = claimed.delivery.endpointId;
  const secrets = [ctx.secretBox.decrypt(claimed.secretSealed, endpointId)];
  if (claimed.previousSecretSealed)
    secrets.push(ctx.secretBox.decrypt(claimed.previousSecretSealed, endpointId));
  const attemptedAt = ctx.clock.now();
  const signature = signPayload({
    payload: claimed.payload,
    secrets,
    timestampSeconds: Math.floor(attemptedAt.getTime() / 1000),
  });
  const outcome = await sender.send({
    url: claimed.url,
    livemode: claimed.livemode,
    payload: claimed.payload,
    signature,
  });
  const attemptNumber = await recordAttempt(
    ctx,
    claimed,
    claimToken,
    attemptedAt,
    outcome,
    options.manual,
    options.logger,
  );
  if (attemptNumber === null) {
    options.logger.warn(
      { delivery_id: claimed.delivery.id },
      'webhook attempt outlived its claim; another worker owns the delivery now, so this outcome is not recorded',
    );
  }
  return { attemptNumber, outcome };
}

export function createDeliveryWorker(ctx: AppContext, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const logger = options.logger ?? silentLogger;
  const leaseMs = (options.leaseSeconds ?? 60) * 1000;
  const batchSize = options.batchSize ?? 50;
  const concurrency = options.concurrency ?? 64;
  const pollIntervalMs = options.pollIntervalMs ?? 5000;
  const sender = options.sender ?? createWebhookSender(options);
  const ownsSender = options.sender === undefined;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let pumping = false;
  let again = false;
  let unlisten: (() => Promise<void>) | null = null;
  let poll: NodeJS.Timeout | null = null;

  async function claim(limit: number): Promise<{ token: string; claimed: ClaimedDelivery[] }> {
    // The process id in the token tells an operator (and the crash test) which process holds a claim.
    const token = `${process.pid}.${randomBase62(16)}`;
    const now = ctx.clock.now();
    // One statement: atomic by itself, no transaction round trips.
    const claimed = await claimDueDeliveries(ctx.db, {
      now,
      leaseUntil: new Date(now.getTime() + leaseMs),
      claimToken: token,
      limit,
    });
    for (const c of claimed) {
      if (c.reclaimed) {
        logger.warn({ delivery_id: c.delivery.id }, 'webhook delivery re-claimed after an expired lease');
      }
    }
    return { token, claimed };
  }

  function attempt(claimed: ClaimedDelivery, token: string): Promise<void> {
    return attemptDelivery(ctx, sender, claimed, token, { manual: false, logger }).then(
      () => undefined,
      (error: unknown) => {
        logger.error({ err: error, delivery_id: claimed.delivery.id }, 'webhook attempt could not be made');
      },
    );
  }

  function track(promise: Promise<void>): void {
    inFlight.add(promise);
    promise.finally(() => inFlight.delete(promise));
  }

  // Claims while there is room and work; a wake-up during a pump makes it look once more.
  async function pump(): Promise<void> {
    do {
      again = false;
      while (!stopped) {
        const room = concurrency - inFlight.size;
        // Claim in batches, not one row per finished attempt: wait until half a batch has room.
        if (room < Math.min(batchSize, concurrency) / 2) {
          await Promise.race(inFlight);
          continue;
        }
        const limit = Math.min(room, batchSize);
        const { token, claimed } = await claim(limit);
        for (const c of claimed) track(attempt(c, token));
        if (claimed.length < limit) break;
      }
    } while (again && !stopped);
  }

  function trigger(): void {
    if (stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    pump()
      .catch((error: unknown) => logger.error({ err: error }, 'webhook claim failed; the poll tries again'))
      .finally(() => {
        pumping = false;
      });
  }

  return {
    async runOnce() {
      let attempted = 0;
      for (;;) {
        const { token, claimed } = await claim(batchSize);
        attempted += claimed.length;
        await Promise.all(claimed.map((c) => attempt(c, token)));
        if (claimed.length < batchSize) return attempted;
      }
    },
    wake: trigger,
    async start() {
      unlisten = await ctx.db.listen(EVENTS_CHANNEL, trigger);
      poll = setInterval(trigger, pollIntervalMs);
      trigger();
    },
    async stop() {
      stopped = true;
      if (poll) clearInterval(poll);
      await unlisten?.();
      while (pumping || inFlight.size > 0) {
        await Promise.race([...inFlight, new Promise((resolve) => setTimeout(resolve, 20))]);
      }
      if (ownsSender) await sender.close();
    },
  };
}
