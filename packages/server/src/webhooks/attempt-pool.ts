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
 * Wakes whoever waits for the next `signal`. The pool's loop waits on it instead of racing every
 * attempt in flight: a `Promise.race` over 64 attempts for each one that finished put 64
 * reactions per delivery on the microtask queue.
 */
class Signal {
  #waiters: (() => void)[] = [];

  wait(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  signal(): void {
    if (this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * Runs queued attempts with at most `concurrency` in flight: each one that finishes starts the
 * next. A claim may be bigger than the room for attempts, so what it brought waits here.
 * `run` must not reject (the worker logs failures inside it).
 */
export class AttemptPool<T> {
  readonly #concurrency: number;
  readonly #run: (item: T) => Promise<void>;
  #inFlight = 0;
  readonly #waiting: T[] = [];
  /** Told when an attempt finishes. */
  readonly #finished = new Signal();
  readonly #done = () => {
    this.#inFlight -= 1;
    this.#startWaiting();
    this.#finished.signal();
  };

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
    return this.#waiting.length > 0 && this.#waiting.length + this.#inFlight >= this.#concurrency * 1.5;
  }

  /** Resolves once the pool is no longer well stocked (at once if it is not). */
  async roomForClaim(): Promise<void> {
    while (this.wellStocked) await this.#finished.wait();
  }

  /** Resolves once nothing is in flight or waiting. */
  async drained(): Promise<void> {
    while (this.#inFlight > 0 || this.#waiting.length > 0) await this.#finished.wait();
  }

  /** How many attempts are in flight. */
  get size(): number {
    return this.#inFlight;
  }

  #startWaiting(): void {
    while (this.#inFlight < this.#concurrency && this.#waiting.length > 0) {
      const next = this.#waiting.shift() as T;
      this.#inFlight += 1;
      this.#run(next).then(this.#done, this.#done);
    }
  }
}

/** One claimed delivery to attempt; the deliveries of one claim share `claimBatch`. */
export interface ClaimedAttempt {
  claimed: ClaimedDelivery;
  token: string;
  /** What the deliveries of one claim share. */
  claimBatch: ClaimBatch;
}

export interface ClaimBatch {
  /** The claim's attempts still sending: when the last is in, its batch of outcomes is written. */
  unfinished: number;
  /**
   * Opens the claim's sealed secrets, each once per claim (its deliveries mostly go to a few
   * endpoints): set by the first attempt of the claim.
   */
  open?: (endpointId: string, sealed: string) => string;
}

/** The deliveries one claim brought back, as attempts that share one count of unfinished ones. */
export function claimedAttempts(claimed: readonly ClaimedDelivery[], token: string): ClaimedAttempt[] {
  const claimBatch: ClaimBatch = { unfinished: claimed.length };
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
  readonly #acks: OutcomeBatcher<MadeAttempt>;
  readonly #secrets: SecretCache;
  /** Outcomes made and not yet written; claims pause while too many wait. */
  #unrecorded = 0;
  /** Told when a batch of outcomes has been written (or has failed to be). */
  readonly #recorded = new Signal();

  constructor(
    ctx: DeliveryContext,
    sender: WebhookSender,
    logger: WorkerLogger,
    options: { ackBatchSize: number; ackWindowMs: number },
  ) {
    this.#ctx = ctx;
    this.#sender = sender;
    this.#logger = logger;
    this.#acks = createOutcomeBatcher(
      (made) => recordAttempts(ctx, made, logger),
      { maxBatch: options.ackBatchSize, windowMs: options.ackWindowMs },
      (made, attemptNumbers, error) => this.#written(made, attemptNumbers, error),
    );
    this.#secrets = createSecretCache(ctx.secretBox, ctx.clock);
  }

  /** Attempts one claimed delivery; never rejects (a failure is logged). */
  async attempt({ claimed, token, claimBatch }: ClaimedAttempt): Promise<void> {
    try {
      claimBatch.open ??= this.#claimOpener();
      const { attemptedAt, outcome } = await makeAttempt(this.#ctx, this.#sender, claimed, claimBatch.open);
      this.#unrecorded += 1;
      this.#acks.add({ claimed, claimToken: token, attemptedAt, outcome, manual: false });
    } catch (error) {
      this.#logger.error(
        { err: error, delivery_id: claimed.delivery.id },
        'webhook attempt could not be made',
      );
    } finally {
      claimBatch.unfinished -= 1;
      // The claim's last outcome is in: nothing more of this batch is coming, so write it now.
      if (claimBatch.unfinished === 0) this.#acks.flush();
    }
  }

  /**
   * Opens secrets for the attempts of one claim: through the worker's cache (AES-GCM once per
   * secret, kept 5 minutes) the first time in the claim, then from the claim's own memo, which
   * ends with the claim (a cache look-up per delivery built a key of the sealed value, read the
   * clock and reordered the LRU list).
   */
  #claimOpener(): (endpointId: string, sealed: string) => string {
    const opened = new Map<string, { endpointId: string; secret: string }>();
    return (endpointId, sealed) => {
      const hit = opened.get(sealed);
      if (hit !== undefined && hit.endpointId === endpointId) return hit.secret;
      const secret = this.#secrets.open(endpointId, sealed);
      opened.set(sealed, { endpointId, secret });
      return secret;
    };
  }

  /** How many outcomes wait to be written. */
  get recordingCount(): number {
    return this.#unrecorded;
  }

  /** Resolves when a batch of waiting outcomes has been written (or has failed to be). */
  oneRecorded(): Promise<void> {
    return this.#recorded.wait();
  }

  /** Resolves once every outcome made so far has been written (or has failed to be). */
  async allRecorded(): Promise<void> {
    while (this.#unrecorded > 0) await this.#recorded.wait();
  }

  #written(made: MadeAttempt[], attemptNumbers: (number | null)[] | null, error: unknown): void {
    if (attemptNumbers === null) {
      // Not written: the lease runs out and the deliveries are attempted again, as after a crash.
      for (const m of made) {
        this.#logger.error(
          { err: error, delivery_id: m.claimed.delivery.id },
          'webhook attempt could not be recorded',
        );
      }
    } else {
      made.forEach((m, i) => {
        if (attemptNumbers[i] === null) warnLostClaim(this.#logger, m.claimed.delivery.id);
      });
    }
    this.#unrecorded -= made.length;
    this.#recorded.signal();
  }
}
