import { type Backoff, backoffDelayMs } from '../domain/retry-schedules.ts';
import { DatabaseError } from './db.ts';
import { processStopping, unlessStopped } from './stop-signal.ts';

/** The pauses between tries: 0.5 s doubling up to 10 s (the one back-off rule of domain/). */
export const START_WAIT_BACKOFF: Backoff = { firstMs: 500, maxMs: 10_000 };

/**
 * What the wait reads the time from. Structurally the service's `Clock` (clock.ts), declared here
 * because storage/ imports only domain/: callers pass their clock, tests a manual one.
 */
export interface WaitClock {
  now(): Date;
}

/**
 * The default: real elapsed time from the monotonic timer. The bound is on real seconds (a
 * database starting, a failover), which no test clock moves, and a wall-clock step during the wait
 * must not end or stretch it.
 */
const monotonicClock: WaitClock = { now: () => new Date(performance.timeOrigin + performance.now()) };

export interface StartWaitLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** Waits the given milliseconds; tests give one that moves a manual clock instead. */
export type Pause = (ms: number) => Promise<void>;

const realPause: Pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens the database, trying again while it cannot be reached (refused, unknown host, timed out,
 * starting up, shutting down): a process started together with its database (compose, systemd
 * after a reboot) or during a failover waits for it, saying so on each try, instead of exiting.
 * Pauses are 0.5 s, 1 s, 2 s, ... up to 10 s, for at most `waitSeconds` in all; then, or at once
 * for any other error (a wrong password, a missing database), the error is thrown. A stop request
 * (`stopping`: SIGTERM, SIGINT) ends the wait at once, during a pause or a connection attempt,
 * with its `StopRequested`.
 */
export async function waitForDatabase<T>(
  open: () => Promise<T>,
  waitSeconds: number,
  log: StartWaitLog,
  clock: WaitClock = monotonicClock,
  pause: Pause = realPause,
  stopping: AbortSignal = processStopping,
): Promise<T> {
  const startedAt = clock.now().getTime();
  const waitedSeconds = () => Math.round((clock.now().getTime() - startedAt) / 100) / 10;
  let tries = 0;
  for (;;) {
    tries += 1;
    try {
      const opened = await unlessStopped(open(), stopping);
      if (tries > 1) log.info({ tries, waitedSeconds: waitedSeconds() }, 'database reachable');
      return opened;
    } catch (error) {
      if (!(error instanceof DatabaseError && error.connectionFailed)) throw error;
      const delayMs = backoffDelayMs(START_WAIT_BACKOFF, tries - 1);
      const elapsedMs = clock.now().getTime() - startedAt;
      if (elapsedMs + delayMs > waitSeconds * 1000) {
        if (tries > 1) error.message = `${error.message} (gave up after ${waitedSeconds()} s of waiting)`;
        throw error;
      }
      log.warn(
        { cause: error.message, tries, waitedSeconds: waitedSeconds(), retryInMs: delayMs },
        'waiting for the database',
      );
      await unlessStopped(pause(delayMs), stopping);
    }
  }
}
