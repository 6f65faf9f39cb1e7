import { type Clock, systemClock } from '../clock.ts';
import { DatabaseError } from './db.ts';

/** The first pause before trying the database again; it doubles up to `START_WAIT_DELAY_MS_MAX`. */
export const START_WAIT_DELAY_MS_MIN = 500;
export const START_WAIT_DELAY_MS_MAX = 10_000;

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
 * for any other error (a wrong password, a missing database), the error is thrown.
 */
export async function waitForDatabase<T>(
  open: () => Promise<T>,
  waitSeconds: number,
  log: StartWaitLog,
  clock: Clock = systemClock,
  pause: Pause = realPause,
): Promise<T> {
  const startedAt = clock.now().getTime();
  const waitedSeconds = () => Math.round((clock.now().getTime() - startedAt) / 100) / 10;
  let delayMs = START_WAIT_DELAY_MS_MIN;
  let tries = 0;
  for (;;) {
    tries += 1;
    try {
      const opened = await open();
      if (tries > 1) log.info({ tries, waitedSeconds: waitedSeconds() }, 'database reachable');
      return opened;
    } catch (error) {
      if (!(error instanceof DatabaseError && error.connectionFailed)) throw error;
      const elapsedMs = clock.now().getTime() - startedAt;
      if (elapsedMs + delayMs > waitSeconds * 1000) {
        if (tries > 1) error.message = `${error.message} (gave up after ${waitedSeconds()} s of waiting)`;
        throw error;
      }
      log.warn(
        { cause: error.message, tries, waitedSeconds: waitedSeconds(), retryInMs: delayMs },
        'waiting for the database',
      );
      await pause(delayMs);
      delayMs = Math.min(delayMs * 2, START_WAIT_DELAY_MS_MAX);
    }
  }
}
