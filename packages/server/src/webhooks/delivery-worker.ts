import { randomBase62 } from '../domain/ids.ts';
import { EVENTS_CHANNEL } from '../storage/repositories/events.ts';
import { type ClaimedDelivery, claimDueDeliveries } from '../storage/repositories/webhook-deliveries.ts';
import { makeAttempt, recordAttempts, type WorkerLogger } from './attempt-outcomes.ts';
import {
  AttemptPool,
  BatchedAttempts,
  type ClaimedAttempt,
  claimedAttempts,
  warnLostClaim,
} from './attempt-pool.ts';
import type { DeliveryContext } from './delivery-context.ts';
import type { AttemptOutcome, SenderOptions, WebhookSender } from './sender.ts';
import { createWebhookSender, DEFAULT_ATTEMPT_TIMEOUT_MS } from './sender.ts';

export type { WorkerLogger } from './attempt-outcomes.ts';

export const silentLogger: WorkerLogger = { info() {}, warn() {}, error() {} };

export interface DeliveryWorkerOptions extends SenderOptions {
  /** How long a claim is held; longer than the attempt time-out, so a live worker always finishes first. */
  leaseSeconds?: number;
  /**
   * Deliveries claimed by one statement when work trickles in. While claims come back full (a
   * backlog) each claim is twice the last, up to what the lease can cover (see `claimSizeMax`).
   */
  batchSize?: number;
  /** Attempts in flight at once in this process. */
  concurrency?: number;
  /** The fallback poll, for retries coming due and for a missed notification. */
  pollIntervalMs?: number;
  /** Outcomes recorded by one statement at most. */
  ackBatchSize?: number;
  /**
   * How long a finished attempt waits for others before its outcome is recorded anyway (a claimed
   * batch whose attempts have all finished is recorded at once). An outcome not yet recorded when
   * the process dies is attempted again after the lease, as an attempt in flight would be.
   */
  ackWindowMs?: number;
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
  /** Resolves once the worker has nothing claimed and is not looking for work. */
  idle(): Promise<void>;
  /** Stops claiming, waits for attempts in flight to be recorded, and closes its connections. */
  stop(): Promise<void>;
}

/**
 * Makes one attempt of a claimed delivery and records it by itself (the operator's manual attempt;
 * the worker batches its records instead). A secret that cannot be opened (wrong master key) is an
 * operator fault, not the merchant's: no attempt is recorded and the claim's lease runs out, so it
 * is tried again later.
 */
export async function attemptDelivery(
  ctx: DeliveryContext,
  sender: WebhookSender,
  claimed: ClaimedDelivery,
  claimToken: string,
  options: { manual: boolean; logger: WorkerLogger },
): Promise<{ attemptNumber: number | null; outcome: AttemptOutcome }> {
  const open = (endpointId: string, sealed: string) => ctx.secretBox.decrypt(sealed, endpointId);
  const { attemptedAt, outcome } = await makeAttempt(ctx, sender, claimed, open);
  const [attemptNumber = null] = await recordAttempts(
    ctx,
    [{ claimed, claimToken, attemptedAt, outcome, manual: options.manual }],
    options.logger,
  );
  if (attemptNumber === null) warnLostClaim(options.logger, claimed.delivery.id);
  return { attemptNumber, outcome };
}

/**
 * The most one claim may take. Every claimed delivery must be attempted before its lease runs out,
 * even when every attempt runs to its time-out: one claim's attempts fit in a third of the lease,
 * so a claim made while the one before still waits (up to half the room) and the attempts in
 * flight still finish in time. Bigger claims mean fewer claim statements for a backlog; the lease
 * is what bounds them.
 */
export function claimSizeMax(options: { concurrency: number; leaseMs: number; timeoutMs: number }): number {
  const roundsWithinThirdOfLease = Math.max(1, Math.floor(options.leaseMs / 3 / options.timeoutMs));
  return options.concurrency * roundsWithinThirdOfLease;
}

/**
 * How many deliveries the next claim asks for: `batchSize` while work trickles in; while claims
 * come back full (a backlog) each claim is twice the last, up to what the lease can cover.
 */
export class ClaimSizer {
  /** The base size, and the size of every claim made outside the background loop. */
  readonly batchSize: number;
  /** The largest claim (never below `batchSize`); also bounds the outcomes waiting to be written. */
  readonly max: number;
  #next: number;

  constructor(options: { batchSize: number; concurrency: number; leaseMs: number; timeoutMs: number }) {
    this.batchSize = options.batchSize;
    this.max = Math.max(options.batchSize, claimSizeMax(options));
    this.#next = options.batchSize;
  }

  /** The size of the next claim. */
  get next(): number {
    return this.#next;
  }

  /**
   * Takes in what a claim of `limit` brought back. Returns whether it was full: then more may be
   * due now, and the next claim is bigger; otherwise the next one is back to `batchSize`.
   */
  claimed(limit: number, count: number): boolean {
    if (count < limit) {
      this.#next = this.batchSize;
      return false;
    }
    this.#next = Math.min(this.#next * 2, this.max);
    return true;
  }
}

/** Claims up to `limit` due deliveries under a fresh token for `leaseMs`. */
async function claimDue(
  ctx: DeliveryContext,
  limit: number,
  leaseMs: number,
  logger: WorkerLogger,
): Promise<{ token: string; claimed: ClaimedDelivery[] }> {
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

export function createDeliveryWorker(
  ctx: DeliveryContext,
  options: DeliveryWorkerOptions = {},
): DeliveryWorker {
  return new BackgroundDeliveryWorker(ctx, options);
}

/**
 * The worker's loop: claims due deliveries (sized by a ClaimSizer), hands them to an AttemptPool
 * that runs BatchedAttempts, and looks again when an event is committed, when the poll fires, or
 * when woken. Claims stop while the pool is well stocked or the writes of outcomes fall behind.
 */
class BackgroundDeliveryWorker implements DeliveryWorker {
  readonly #ctx: DeliveryContext;
  readonly #logger: WorkerLogger;
  readonly #leaseMs: number;
  readonly #pollIntervalMs: number;
  readonly #sender: WebhookSender;
  readonly #ownsSender: boolean;
  readonly #sizes: ClaimSizer;
  readonly #attempts: BatchedAttempts;
  readonly #pool: AttemptPool<ClaimedAttempt>;
  #stopped = false;
  /** The claiming loop while it runs; a wake-up during it sets `#again` to make it look once more. */
  #pumping: Promise<void> | null = null;
  #again = false;
  #unlisten: (() => Promise<void>) | null = null;
  #poll: NodeJS.Timeout | null = null;

  constructor(ctx: DeliveryContext, options: DeliveryWorkerOptions) {
    this.#ctx = ctx;
    this.#logger = options.logger ?? silentLogger;
    this.#leaseMs = (options.leaseSeconds ?? 60) * 1000;
    this.#pollIntervalMs = options.pollIntervalMs ?? 5000;
    this.#sender =
      options.sender ??
      createWebhookSender({ testAllowsLoopback: ctx.testWebhooksAllowLoopback, ...options });
    this.#ownsSender = options.sender === undefined;
    const concurrency = options.concurrency ?? 64;
    this.#sizes = new ClaimSizer({
      batchSize: options.batchSize ?? 50,
      concurrency,
      leaseMs: this.#leaseMs,
      timeoutMs: options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
    });
    // The window is 100 ms: no attempt waits for the write any more, so a longer window costs
    // nothing but a later record, and attempts finishing one by one from a large claim still share
    // a statement. At 20 ms a backlog was written about 20 outcomes per statement; at 100 ms the
    // batches fill (bench:webhooks, 4 interleaved pairs: PostgreSQL CPU per delivery -12%, the
    // worker's -10%).
    this.#attempts = new BatchedAttempts(ctx, this.#sender, this.#logger, {
      ackBatchSize: options.ackBatchSize ?? 100,
      ackWindowMs: options.ackWindowMs ?? 100,
    });
    this.#pool = new AttemptPool(concurrency, (item) => this.#attempts.attempt(item));
  }

  async runOnce(): Promise<number> {
    const batchSize = this.#sizes.batchSize;
    let attempted = 0;
    for (;;) {
      const { token, claimed } = await claimDue(this.#ctx, batchSize, this.#leaseMs, this.#logger);
      attempted += claimed.length;
      await Promise.all(claimedAttempts(claimed, token).map((item) => this.#attempts.attempt(item)));
      await this.#attempts.allRecorded();
      if (claimed.length < batchSize) return attempted;
    }
  }

  wake = (): void => {
    if (this.#stopped) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = this.#pump()
      .catch((error: unknown) =>
        this.#logger.error({ err: error }, 'webhook claim failed; the poll tries again'),
      )
      .finally(() => {
        this.#pumping = null;
      });
  };

  async idle(): Promise<void> {
    while (this.#pumping || this.#pool.size > 0 || this.#attempts.recordingCount > 0) {
      await Promise.allSettled([this.#pumping, this.#pool.drained(), this.#attempts.allRecorded()]);
    }
  }

  async start(): Promise<void> {
    this.#unlisten = await this.#ctx.db.listen(EVENTS_CHANNEL, this.wake, (state, error) => {
      if (state === 'lost') {
        this.#logger.warn(
          { channel: EVENTS_CHANNEL, error: error?.message },
          'webhook notification connection lost; reconnecting with back-off (the poll still runs)',
        );
        return;
      }
      this.#logger.info({ channel: EVENTS_CHANNEL }, 'webhook notification connection re-established');
      // Events committed while it was down woke nobody: look for them now.
      this.wake();
    });
    this.#poll = setInterval(this.wake, this.#pollIntervalMs);
    this.wake();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#poll) clearInterval(this.#poll);
    await this.#unlisten?.();
    await this.idle();
    if (this.#ownsSender) await this.#sender.close();
  }

  // Claims while there is work, before the attempts run dry; a wake-up during a pump makes it
  // look once more.
  async #pump(): Promise<void> {
    do {
      this.#again = false;
      while (!this.#stopped) {
        if (this.#pool.wellStocked) {
          await this.#pool.roomForClaim();
          continue;
        }
        // Writes falling behind: the database is the bottleneck, so claiming more would only
        // hold more rows under lease.
        if (this.#attempts.recordingCount >= this.#sizes.max) {
          await this.#attempts.oneRecorded();
          continue;
        }
        const limit = this.#sizes.next;
        const { token, claimed } = await claimDue(this.#ctx, limit, this.#leaseMs, this.#logger);
        this.#pool.add(claimedAttempts(claimed, token));
        if (!this.#sizes.claimed(limit, claimed.length)) break;
      }
    } while (this.#again && !this.#stopped);
  }
}
