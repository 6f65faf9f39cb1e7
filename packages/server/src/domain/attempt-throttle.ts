import { createHash } from 'node:crypto';
import { backoffDelayMs } from './retry-schedules.ts';

/**
 * The throttle on guessing a dashboard secret (a password, a second-factor code, an invitation
 * token). Failures are counted per subject: an e-mail address for sign-ins and second-factor codes,
 * whether or not a user has that address (so the answers cannot tell which addresses exist), and a
 * client address for invitation tokens.
 *
 * Each attempt counts as a failure *before* its secret is checked, and the success takes the count
 * back: so a burst of concurrent guesses, in any process, costs as many failures as guesses.
 */

/** The failure that reaches this count starts the first block: the next attempt is refused. */
export const FREE_FAILURES = 5;
const BLOCK_BASE_MS = 30_000;
const BLOCK_MAX_MS = 15 * 60_000;
/** A count untouched this long is forgotten (and its row may be deleted). */
export const THROTTLE_MEMORY_MS = 24 * 60 * 60_000;

export type ThrottleKind = 'sign-in' | 'invitation' | 'operator-sign-in';

export interface ThrottleState {
  failures: number;
  blockedUntil: Date | null;
  updatedAt: Date;
}

/** The row key: the kind and a SHA-256 of the value (the table holds no address). */
export function throttleSubject(kind: ThrottleKind, value: string): string {
  return `${kind}:${createHash('sha256').update(value, 'utf8').digest('hex')}`;
}

/** When a subject with `failures` failures in a row may try again: 30 s from the 5th, doubling, at most 15 min. */
export function blockEnd(failures: number, now: Date): Date | null {
  const over = failures - FREE_FAILURES;
  if (over < 0) return null;
  return new Date(now.getTime() + backoffDelayMs({ firstMs: BLOCK_BASE_MS, maxMs: BLOCK_MAX_MS }, over));
}

/** Whole seconds until the subject may try again; 0 when it may now. */
export function secondsBlocked(state: ThrottleState, now: Date): number {
  if (!state.blockedUntil || state.blockedUntil <= now) return 0;
  return Math.ceil((state.blockedUntil.getTime() - now.getTime()) / 1000);
}

/** The state an admitted attempt leaves: one more failure, until its success takes it back. */
export function afterAttempt(state: ThrottleState, now: Date): ThrottleState {
  const stale = now.getTime() - state.updatedAt.getTime() >= THROTTLE_MEMORY_MS;
  const failures = (stale ? 0 : state.failures) + 1;
  return { failures, blockedUntil: blockEnd(failures, now), updatedAt: now };
}

/**
 * The state after an attempt turned out not to count (a second factor not sent yet): one failure
 * fewer, and no block unless the failures left still earn one (other attempts meanwhile).
 */
export function withoutOneAttempt(state: ThrottleState, now: Date): ThrottleState {
  const failures = Math.max(0, state.failures - 1);
  return { failures, blockedUntil: failures >= FREE_FAILURES ? state.blockedUntil : null, updatedAt: now };
}
