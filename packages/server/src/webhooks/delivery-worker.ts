import type { AppContext } from '../app/context.ts';
import { createSecretCache } from '../crypto/secret-box.ts';
import { randomBase62 } from '../domain/ids.ts';
import { EVENTS_CHANNEL } from '../storage/repositories/events.ts';
import { type ClaimedDelivery, claimDueDeliveries } from '../storage/repositories/webhook-deliveries.ts';
import {
  createOutcomeBatcher,
  type MadeAttempt,
  makeAttempt,
  recordAttempts,
  type WorkerLogger,
} from './attempt-outcomes.ts';
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

function warnLostClaim(logger: WorkerLogger, deliveryId: string): void {
  logger.warn(
    { delivery_id: deliveryId },
    'webhook attempt outlived its claim; another worker owns the delivery now, so this outcome is not recorded',
  );
}

/**
 * Makes one attempt of a claimed delivery and records it by itself (the operator's manual attempt;
 * the worker batches its records instead). A secret that cannot be opened (wrong master key) is an
 * operator fault, not the merchant's: no attempt is recorded and the claim's lease runs out, so it
 * is tried again later.
 */
export async function attemptDelivery(
  ctx: AppContext,
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

export function createDeliveryWorker(ctx: AppContext, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const logger = options.logger ?? silentLogger;
  const leaseMs = (options.leaseSeconds ?? 60) * 1000;
  const batchSize = options.batchSize ?? 50;
  const concurrency = options.concurrency ?? 64;
  const pollIntervalMs = options.pollIntervalMs ?? 5000;
  const sender =
    options.sender ?? createWebhookSender({ testAllowsLoopback: ctx.testWebhooksAllowLoopback, ...options });
  const ownsSender = options.sender === undefined;
  const maxClaim = Math.max(
    batchSize,
    claimSizeMax({ concurrency, leaseMs, timeoutMs: options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS }),
  );
  let claimSize = batchSize;
  const inFlight = new Set<Promise<void>>();
  /** Outcomes made and not yet written (batched); claims pause while too many wait. */
  const recording = new Set<Promise<void>>();
  /** Claimed deliveries not yet attempted: a claim may be bigger than the room for attempts. */
  const waiting: { claimed: ClaimedDelivery; token: string; claimBatch: { unfinished: number } }[] = [];
  let stopped = false;
  let pumping: Promise<void> | null = null;
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

  // Outcomes are recorded in batches: one statement (and one commit) for many attempts. The
  // window is 100 ms: no attempt waits for the write any more, so a longer window costs nothing but
  // a later record, and attempts finishing one by one from a large claim still share a statement.
  // At 20 ms a backlog was written about 20 outcomes per statement; at 100 ms the batches fill
  // (bench:webhooks, 4 interleaved pairs: PostgreSQL CPU per delivery -12%, the worker's -10%).
  const acks = createOutcomeBatcher<MadeAttempt, number | null>((made) => recordAttempts(ctx, made, logger), {
    maxBatch: options.ackBatchSize ?? 100,
    windowMs: options.ackWindowMs ?? 100,
  });
  const secrets = createSecretCache(ctx.secretBox, ctx.clock);
  const openSecret = (endpointId: string, sealed: string) => secrets.open(endpointId, sealed);

  /**
   * Attempts one claimed delivery; `claimBatch.unfinished` counts the claim's attempts still
   * sending. Resolves once the attempt is made: its outcome is written with others (`recording`),
   * so the room it took is free for the next attempt while the write is on its way.
   */
  async function attempt(claimed: ClaimedDelivery, token: string, claimBatch: { unfinished: number }) {
    let recorded: Promise<number | null>;
    try {
      const { attemptedAt, outcome } = await makeAttempt(ctx, sender, claimed, openSecret);
      recorded = acks.add({ claimed, claimToken: token, attemptedAt, outcome, manual: false });
    } finally {
      claimBatch.unfinished -= 1;
      // The claim's last outcome is in: nothing more of this batch is coming, so write it now.
      if (claimBatch.unfinished === 0) acks.flush();
    }
    const written = recorded.then(
      (attemptNumber) => {
        if (attemptNumber === null) warnLostClaim(logger, claimed.delivery.id);
      },
      (error: unknown) => {
        // Not written: the lease runs out and the delivery is attempted again, as after a crash.
        logger.error(
          { err: error, delivery_id: claimed.delivery.id },
          'webhook attempt could not be recorded',
        );
      },
    );
    recording.add(written);
    void written.finally(() => recording.delete(written));
  }

  function attemptLogged(claimed: ClaimedDelivery, token: string, claimBatch: { unfinished: number }) {
    return attempt(claimed, token, claimBatch).catch((error: unknown) => {
      logger.error({ err: error, delivery_id: claimed.delivery.id }, 'webhook attempt could not be made');
    });
  }

  function attemptAll(claimed: ClaimedDelivery[], token: string): Promise<void>[] {
    const claimBatch = { unfinished: claimed.length };
    return claimed.map((c) => attemptLogged(c, token, claimBatch));
  }

  /** Starts waiting attempts while there is room; each finished attempt makes room for the next. */
  function startWaiting(): void {
    while (inFlight.size < concurrency) {
      const next = waiting.shift();
      if (!next) return;
      const promise = attemptLogged(next.claimed, next.token, next.claimBatch).finally(() => {
        inFlight.delete(promise);
        startWaiting();
      });
      inFlight.add(promise);
    }
  }

  // Claims while there is work, before the attempts run dry; a wake-up during a pump makes it
  // look once more.
  async function pump(): Promise<void> {
    do {
      again = false;
      while (!stopped) {
        // Claim in batches, not one row per finished attempt: the next claim is made when the
        // waiting attempts would keep less than half the room busy.
        if (waiting.length > 0 && waiting.length + inFlight.size >= concurrency * 1.5) {
          await Promise.race(inFlight);
          continue;
        }
        // Writes falling behind: the database is the bottleneck, so claiming more would only
        // hold more rows under lease.
        if (recording.size >= maxClaim) {
          await Promise.race(recording);
          continue;
        }
        const limit = claimSize;
        const { token, claimed } = await claim(limit);
        const claimBatch = { unfinished: claimed.length };
        for (const c of claimed) waiting.push({ claimed: c, token, claimBatch });
        startWaiting();
        if (claimed.length < limit) {
          claimSize = batchSize;
          break;
        }
        claimSize = Math.min(claimSize * 2, maxClaim);
      }
    } while (again && !stopped);
  }

  function trigger(): void {
    if (stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = pump()
      .catch((error: unknown) => logger.error({ err: error }, 'webhook claim failed; the poll tries again'))
      .finally(() => {
        pumping = null;
      });
  }

  async function idle(): Promise<void> {
    // A waiting attempt starts as soon as one in flight ends, so the set is never empty while any wait.
    while (pumping || inFlight.size > 0 || recording.size > 0) {
      await Promise.allSettled([pumping, ...inFlight, ...recording]);
    }
  }

  return {
    async runOnce() {
      let attempted = 0;
      for (;;) {
        const { token, claimed } = await claim(batchSize);
        attempted += claimed.length;
        await Promise.all(attemptAll(claimed, token));
        await Promise.allSettled([...recording]);
        if (claimed.length < batchSize) return attempted;
      }
    },
    wake: trigger,
    idle,
    async start() {
      unlisten = await ctx.db.listen(EVENTS_CHANNEL, trigger, (state, error) => {
        if (state === 'lost') {
          logger.warn(
            { channel: EVENTS_CHANNEL, error: error?.message },
            'webhook notification connection lost; reconnecting with back-off (the poll still runs)',
          );
          return;
        }
        logger.info({ channel: EVENTS_CHANNEL }, 'webhook notification connection re-established');
        // Events committed while it was down woke nobody: look for them now.
        trigger();
      });
      poll = setInterval(trigger, pollIntervalMs);
      trigger();
    },
    async stop() {
      stopped = true;
      if (poll) clearInterval(poll);
      await unlisten?.();
      await idle();
      if (ownsSender) await sender.close();
    },
  };
}
