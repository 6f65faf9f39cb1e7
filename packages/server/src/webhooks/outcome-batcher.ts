export interface OutcomeBatcherOptions {
  /** Outcomes written by one statement at most; a full batch is written at once. */
  maxBatch: number;
  /** How long the first outcome of a batch waits for others before the batch is written anyway. */
  windowMs: number;
}

export interface OutcomeBatcher<I, R> {
  /** Queues an item; resolves with its result once the batch holding it is written. */
  add(item: I): Promise<R>;
  /** Writes what is queued now (the caller knows no more outcomes are coming soon). */
  flush(): void;
}

interface Waiting<I, R> {
  item: I;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Groups items into batches for one write each: a batch is written when it is full, when the
 * caller says it is complete, or `windowMs` after its first item, whichever comes first. Batches
 * are written independently (several may be in flight on a pool). If a write fails, every item of
 * that batch is rejected with the error.
 */
export function createOutcomeBatcher<I, R>(
  write: (items: I[]) => Promise<R[]>,
  options: OutcomeBatcherOptions,
): OutcomeBatcher<I, R> {
  let pending: Waiting<I, R>[] = [];
  let timer: NodeJS.Timeout | null = null;

  function flush(): void {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    write(batch.map((w) => w.item)).then(
      (results) => {
        batch.forEach((w, i) => {
          w.resolve(results[i] as R);
        });
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      },
    );
  }

  return {
    add(item) {
      return new Promise<R>((resolve, reject) => {
        pending.push({ item, resolve, reject });
        if (pending.length >= options.maxBatch) flush();
        else if (!timer) timer = setTimeout(flush, options.windowMs);
      });
    },
    flush,
  };
}
