import type { Logger } from 'pino';

export interface ScheduledJob {
  name: string;
  /** Pause between the end of one run and the start of the next. */
  intervalMs: number;
  /** Does one bounded batch of work; returns how many items it handled (a full batch runs again at once). */
  run(): Promise<number>;
  /** When a run handles this many items, the next run starts without waiting. */
  batchSize?: number;
}

export interface Scheduler {
  /** Runs a job now instead of at its next tick (used when an event says there is work). */
  wake(name: string): void;
  stop(): Promise<void>;
}

/**
 * The loop that drives time-driven work in this process. Jobs claim their rows with
 * `FOR UPDATE SKIP LOCKED`, so any number of processes may run the same scheduler side by side;
 * the loop only decides when to look.
 */
export function startScheduler(jobs: readonly ScheduledJob[], logger: Logger): Scheduler {
  let stopped = false;
  const running = new Map<string, Promise<void>>();
  const timers = new Map<string, NodeJS.Timeout>();

  const schedule = (job: ScheduledJob, delayMs: number) => {
    if (stopped) return;
    clearTimeout(timers.get(job.name));
    timers.set(
      job.name,
      setTimeout(() => tick(job), delayMs),
    );
  };

  const tick = (job: ScheduledJob) => {
    if (stopped || running.has(job.name)) return;
    const run = (async () => {
      let handled = 0;
      try {
        handled = await job.run();
      } catch (error) {
        logger.error({ err: error, job: job.name }, 'scheduled job failed; it runs again at its next tick');
      } finally {
        running.delete(job.name);
        const full = job.batchSize !== undefined && handled >= job.batchSize;
        schedule(job, full ? 0 : job.intervalMs);
      }
    })();
    running.set(job.name, run);
  };

  for (const job of jobs) schedule(job, 0);

  return {
    wake(name) {
      const job = jobs.find((j) => j.name === name);
      if (job && !running.has(name)) schedule(job, 0);
    },
    async stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      await Promise.allSettled(running.values());
    },
  };
}
