import {
  afterAttempt,
  secondsBlocked,
  THROTTLE_MEMORY_MS,
  withoutOneAttempt,
} from '../../domain/attempt-throttle.ts';
import { AppError } from '../../domain/errors.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  clearThrottle,
  forgetOldThrottles,
  lockThrottle,
  saveThrottle,
} from '../../storage/repositories/attempt-throttle.ts';
import type { AppContext } from '../context.ts';

/**
 * Counts an attempt at a secret before the secret is checked, in a transaction of its own on the
 * subject's locked row, so that every concurrent attempt (in this process or another) counts.
 * While the subject is blocked the attempt is refused unchecked and uncounted:
 * `429 rate_limited` with Retry-After, worded by `what` ("sign-ins", ...), the same for every
 * subject of a kind. The caller takes the count back on success (`clearAttempts`) or when the
 * attempt turned out not to be one (`takeBackAttempt`).
 */
export async function countAttempt(ctx: AppContext, subject: string, what: string): Promise<void> {
  const now = ctx.clock.now();
  const waitSeconds = await ctx.db.transaction(async (tx) => {
    await forgetOldThrottles(tx, new Date(now.getTime() - THROTTLE_MEMORY_MS), now);
    const state = await lockThrottle(tx, subject, now);
    const wait = secondsBlocked(state, now);
    if (wait === 0) await saveThrottle(tx, subject, afterAttempt(state, now));
    return wait;
  });
  if (waitSeconds > 0) {
    throw new AppError('rate_limited', `Too many failed ${what}; try again in ${waitSeconds} s.`, {
      retryAfterSeconds: waitSeconds,
    });
  }
}

/** The attempt succeeded: the subject's count starts again (in the success's transaction). */
export async function clearAttempts(tx: Queryable, subject: string): Promise<void> {
  await clearThrottle(tx, subject);
}

/** The attempt was not a guess after all (the second factor is still to come): one failure fewer. */
export async function takeBackAttempt(tx: Queryable, subject: string, now: Date): Promise<void> {
  const state = await lockThrottle(tx, subject, now);
  await saveThrottle(tx, subject, withoutOneAttempt(state, now));
}
