import { createSecretCache, type SecretCache } from '../crypto/secret-box.ts';
import type { ClaimedDelivery } from '../storage/repositories/webhook-deliveries.ts';
import {
  createOutcomeBatcher,
  type MadeAttempt,
  makeAttempt,
  type OutcomeBatcher,
  recordAttempts,
  type WorkerLogger,
} from './attempt-outcomes.ts';
import type { DeliveryContext } from './delivery-context.ts';
import type { WebhookSender } from './sender.ts';

// The worker's attempts: the pool that bounds how many are in flight, and what each one does (make
// the attempt, then have its outcome recorded in a batch). Claim sizing, the other half of the
// worker's pacing, is in delivery-worker.ts next to the claim it sizes.

/**
 * Runs queued attempts with at most `concurrency` in flight: each one that finishes starts the
 * next. A claim may be bigger than the room for attempts, so what it brought waits here.
 * `run` must not reject (the worker logs failures inside it).
 */
export class AttemptPool<T> {
  readonly #concurrency: number;
  readonly #run: (item: T) => Promise<void>;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #waiting: T[] = [];

  constructor(concurrency: number, run: (item: T) => Promise<void>) {
    this.#concurrency = concurrency;
    this.#run = run;
  }

  /** Queues items and starts as many as there is room for. */
  add(items: Iterable<T>): void {
    for (const item of items) this.#waiting.push(item);
    this.#startWaiting();
  }

  /**
   * Whether the next claim should wait: claims are made in batches, not one row per finished
   * attempt, when the waiting attempts would keep less than half the room busy.
   */
  get wellStocked(): boolean {
    return this.#waiting.length > 0 && this.#waiting.length + this.#inFlight.size >= this.#concurrency * 1.5;
  }

  /** Resolves when one attempt in flight finishes. */
  oneFinished(): Promise<void> {
    return Promise.race(this.#inFlight);
  }

  /** How many attempts are in flight. */
  get size(): number {
    return this.#inFlight.size;
  }

  /**
   * The attempts in flight now. A waiting attempt starts as soon as one in flight ends, so this is
   * never empty while any wait.
   */
  inFlight(): Promise<void>[] {
    return [...this.#inFlight];
  }

  #startWaiting(): void {
    while (this.#inFlight.size < this.#concurrency) {
      const next = this.#waiting.shift();
      if (next === undefined) return;
      const promise = this.#run(next).finally(() => {
        this.#inFlight.delete(promise);
        this.#startWaiting();
      });
      this.#inFlight.add(promise);
    }
  }
}

/** One claimed delivery to attempt; the deliveries of one claim share `claimBatch`. */
export interface ClaimedAttempt {
  claimed: ClaimedDelivery;
  token: string;
  /** The claim's attempts still sending: when the last is in, its batch of outcomes is written. */
  claimBatch: { unfinished: number };
}

/** The deliveries one claim brought back, as attempts that share one count of unfinished ones. */
export function claimedAttempts(claimed: readonly ClaimedDelivery[], token: string): ClaimedAttempt[] {
  const claimBatch = { unfinished: claimed.length };
  return claimed.map((c) => ({ claimed: c, token, claimBatch }));
}

export function warnLostClaim(logger: WorkerLogger, deliveryId: string): void {
  logger.warn(
    { delivery_id: deliveryId },
    'webhook attempt outlived its claim; another worker owns the delivery now, so this outcome is not recorded',
  );
}

/**
 * Makes the worker's attempts and has their outcomes recorded in batches: one statement (and one
 * commit) for many attempts. An attempt is done once it is made; its outcome is written with
 * others, so the room it took is free for the next attempt while the write is on its way.
 */
export class BatchedAttempts {
  readonly #ctx: DeliveryContext;
  readonly #sender: WebhookSender;
  readonly #logger: WorkerLogger;
  readonly #acks: OutcomeBatcher<MadeAttempt, number | null>;
  readonly #secrets: SecretCache;
  readonly #openSecret = (endpointId: string, sealed: string) => this.#secrets.open(endpointId, sealed);
  /** Outcomes made and not yet written; claims pause while too many wait. */
  readonly #recording = new Set<Promise<void>>();

  constructor(
    ctx: DeliveryContext,
    sender: WebhookSender,
    logger: WorkerLogger,
    options: { ackBatchSize: number; ackWindowMs: number },
  ) {
    this.#ctx = ctx;
    this.#sender = sender;
    this.#logger = logger;
    this.#acks = createOutcomeBatcher((made) => recordAttempts(ctx, made, logger), {
      maxBatch: options.ackBatchSize,
      windowMs: options.ackWindowMs,
    });
    this.#secrets = createSecretCache(ctx.secretBox, ctx.clock);
  }

  /** Attempts one claimed delivery; never rejects (a failure is logged). */
  attempt(item: ClaimedAttempt): Promise<void> {
    return this.#attempt(item).catch((error: unknown) => {
      this.#logger.error(
        { err: error, delivery_id: item.claimed.delivery.id },
        'webhook attempt could not be made',
      );
    });
  }

  /** How many outcomes wait to be written. */
  get recordingCount(): number {
    return this.#recording.size;
  }

  /** Resolves when one waiting outcome has been written (or has failed to be). */
  oneRecorded(): Promise<void> {
    return Promise.race(this.#recording);
  }

  /** The writes of outcomes on their way now. */
  recording(): Promise<void>[] {
    return [...this.#recording];
  }

  async #attempt({ claimed, token, claimBatch }: ClaimedAttempt): Promise<void> {
    let recorded: Promise<number | null>;
    try {
      const { attemptedAt, outcome } = await makeAttempt(this.#ctx, this.#sender, claimed, this.#openSecret);
      recorded = this.#acks.add({ claimed, claimToken: token, attemptedAt, outcome, manual: false });
    } finally {
      claimBatch.unfinished -= 1;
      // The claim's last outcome is in: nothing more of this batch is coming, so write it now.
      if (claimBatch.unfinished === 0) this.#acks.flush();
    }
    const written = recorded.then(
      (attemptNumber) => {
        if (attemptNumber === null) warnLostClaim(this.#logger, claimed.delivery.id);
      },
      (error: unknown) => {
        // Not written: the lease runs out and the delivery is attempted again, as after a crash.
        this.#logger.error(
          { err: error, delivery_id: claimed.delivery.id },
          'webhook attempt could not be recorded',
        );
      },
    );
    this.#recording.add(written);
    void written.finally(() => this.#recording.delete(written));
  }
}
