// When to try again, as pure functions of instants the caller reads from its Clock: the one
// doubling back-off of the service (reconciliation checks of a charge, tries of a delayed charge
// and of a late capture's refund, sends of queued mail, the dashboard's sign-in block, a process's
// start-up wait for its database), and the
// webhook delivery schedule of the specification with the endpoint-health thresholds of
// CONTRACT.md (a fixed table, not a back-off).

/** Where a back-off starts and where it stops growing, in milliseconds. */
export interface Backoff {
  /** The wait before the first retry. */
  firstMs: number;
  /** The longest wait: doubling stops here. */
  maxMs: number;
}

/**
 * The wait before a retry: `firstMs` when no retry came before it, twice as long for each one
 * that did, never more than `maxMs`. `retriesBefore` is a whole number from 0.
 */
export function backoffDelayMs(rule: Backoff, retriesBefore: number): number {
  if (!Number.isSafeInteger(retriesBefore) || retriesBefore < 0) {
    throw new RangeError(`retriesBefore must be a non-negative integer, got ${retriesBefore}`);
  }
  // 2 ** n is Infinity for a large n, and the minimum is then `maxMs`: no overflow to guard.
  return Math.min(rule.maxMs, rule.firstMs * 2 ** retriesBefore);
}

/**
 * Offsets of the six attempts from the FIRST attempt (not from the previous one): 0, +1 m, +5 m,
 * +30 m, +2 h, +12 h. A late worker therefore catches up instead of pushing every later slot back.
 */
export const ATTEMPT_OFFSETS_SECONDS: readonly number[] = Object.freeze([0, 60, 300, 1800, 7200, 43_200]);

/** The initial attempt plus five retries; after the sixth failure a delivery is FAILED. */
export const MAX_ATTEMPTS = ATTEMPT_OFFSETS_SECONDS.length;

/**
 * When the next attempt is due, given the instant of the first attempt and how many attempts were
 * already made (0 before the first). Null once all {@link MAX_ATTEMPTS} have been made: the
 * delivery is FAILED and only a manual retry sends it again.
 */
export function nextAttemptAt(firstAttemptAt: Date, attemptsMade: number): Date | null {
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a non-negative integer, got ${attemptsMade}`);
  }
  const firstMs = firstAttemptAt.getTime();
  if (Number.isNaN(firstMs)) throw new RangeError('firstAttemptAt is not a valid date');
  const offset = ATTEMPT_OFFSETS_SECONDS[attemptsMade];
  return offset === undefined ? null : new Date(firstMs + offset * 1000);
}

/** From this much continuous failure an endpoint shows `failing` and the operator is warned. */
export const FAILING_AFTER_SECONDS = 24 * 3600;
/** With this much continuous failure, and enough FAILED deliveries, an endpoint is `disabled`. */
export const DISABLE_AFTER_SECONDS = 3 * 24 * 3600;
export const DISABLE_MIN_FAILED_DELIVERIES = 10;

export type EndpointHealth = 'enabled' | 'failing' | 'disabled';

/**
 * The health an endpoint has earned: `failingSince` is the first failed attempt after its last
 * success (null while it succeeds), and `failedDeliveriesSinceLastSuccess` counts deliveries that
 * reached FAILED in that stretch. Disabling needs both the time and the count, so a merchant who
 * receives one event a day is not cut off after three stray failures. The caller keeps `disabled`
 * once reached: only the operator turns an endpoint back on.
 */
export function endpointHealth(input: {
  now: Date;
  failingSince: Date | null;
  failedDeliveriesSinceLastSuccess: number;
}): EndpointHealth {
  const { now, failingSince, failedDeliveriesSinceLastSuccess } = input;
  if (failingSince === null) return 'enabled';
  const failingForSeconds = (now.getTime() - failingSince.getTime()) / 1000;
  if (
    failingForSeconds >= DISABLE_AFTER_SECONDS &&
    failedDeliveriesSinceLastSuccess >= DISABLE_MIN_FAILED_DELIVERIES
  ) {
    return 'disabled';
  }
  if (failingForSeconds >= FAILING_AFTER_SECONDS) return 'failing';
  return 'enabled';
}
