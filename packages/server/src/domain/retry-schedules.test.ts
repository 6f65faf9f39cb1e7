import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  backoffDelayMs,
  DISABLE_AFTER_SECONDS,
  DISABLE_MIN_FAILED_DELIVERIES,
  endpointHealth,
  FAILING_AFTER_SECONDS,
  MAX_ATTEMPTS,
  nextAttemptAt,
} from './retry-schedules.ts';

const RECONCILIATION = { firstMs: 30_000, maxMs: 3_600_000 };

describe('backoffDelayMs', () => {
  it('waits 30 s, 60 s, 120 s, ... and at most an hour (the reconciliation checks of a charge)', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelayMs(RECONCILIATION, n) / 1000);
    assert.deepEqual(delays, [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
  });

  it('stays at the maximum however many retries came before, with no overflow', () => {
    assert.equal(backoffDelayMs(RECONCILIATION, 1_000_000), 3_600_000);
    assert.equal(backoffDelayMs(RECONCILIATION, Number.MAX_SAFE_INTEGER), 3_600_000);
  });

  it('doubles until the maximum and never decreases (any rule, any count)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.nat({ max: 200 }),
        (firstMs, extraMs, n) => {
          const rule = { firstMs, maxMs: firstMs + extraMs };
          const now = backoffDelayMs(rule, n);
          const next = backoffDelayMs(rule, n + 1);
          assert.ok(now >= firstMs && now <= rule.maxMs);
          assert.ok(next >= now);
          assert.equal(next, Math.min(rule.maxMs, now * 2));
        },
      ),
    );
  });

  it('refuses a negative or fractional count of retries', () => {
    for (const bad of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => backoffDelayMs(RECONCILIATION, bad), RangeError);
    }
  });
});

const FIRST = new Date('2026-01-01T00:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('nextAttemptAt', () => {
  it('schedules the six attempts at 0, +1 m, +5 m, +30 m, +2 h, +12 h from the first', () => {
    const expected = [0, 1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 12 * HOUR];
    assert.equal(MAX_ATTEMPTS, 6);
    for (const [attemptsMade, offsetMs] of expected.entries()) {
      assert.equal(
        nextAttemptAt(FIRST, attemptsMade)?.toISOString(),
        new Date(FIRST.getTime() + offsetMs).toISOString(),
      );
    }
    assert.equal(nextAttemptAt(FIRST, 4)?.toISOString(), '2026-01-01T02:00:00.000Z');
    assert.equal(nextAttemptAt(FIRST, 5)?.toISOString(), '2026-01-01T12:00:00.000Z');
  });

  it('returns null after the sixth attempt', () => {
    assert.equal(nextAttemptAt(FIRST, 6), null);
    assert.equal(nextAttemptAt(FIRST, 7), null);
  });

  it('refuses a negative or fractional count and an invalid date', () => {
    assert.throws(() => nextAttemptAt(FIRST, -1), RangeError);
    assert.throws(() => nextAttemptAt(FIRST, 1.5), RangeError);
    assert.throws(() => nextAttemptAt(new Date('nope'), 0), RangeError);
  });

  it('does not mutate the first-attempt date', () => {
    const first = new Date(FIRST.getTime());
    nextAttemptAt(first, 3);
    assert.equal(first.getTime(), FIRST.getTime());
  });

  const anyFirst = fc.date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2100-01-01T00:00:00Z'),
    noInvalidDate: true,
  });

  it('is strictly increasing over the six attempts and ends at +12 h (property)', () => {
    fc.assert(
      fc.property(anyFirst, (first) => {
        const times = Array.from({ length: MAX_ATTEMPTS }, (_, n) => nextAttemptAt(first, n));
        assert.ok(times.every((t) => t instanceof Date));
        for (let n = 1; n < times.length; n++) assert.ok(times[n]!.getTime() > times[n - 1]!.getTime());
        assert.equal(times[0]!.getTime(), first.getTime());
        assert.equal(times[MAX_ATTEMPTS - 1]!.getTime() - first.getTime(), 12 * HOUR);
      }),
    );
  });

  it('depends only on the first attempt and the count, with exact whole-minute offsets (property)', () => {
    const offsets = [0, 1, 5, 30, 120, 720];
    fc.assert(
      fc.property(anyFirst, fc.integer({ min: 0, max: 20 }), (first, attemptsMade) => {
        const next = nextAttemptAt(first, attemptsMade);
        if (attemptsMade >= MAX_ATTEMPTS) {
          assert.equal(next, null);
        } else {
          assert.equal(next!.getTime() - first.getTime(), offsets[attemptsMade]! * MINUTE);
        }
      }),
    );
  });
});

describe('endpointHealth', () => {
  const at = (ms: number) => new Date(FIRST.getTime() + ms);

  it('is enabled while nothing fails', () => {
    assert.equal(
      endpointHealth({ now: at(10 * DAY), failingSince: null, failedDeliveriesSinceLastSuccess: 0 }),
      'enabled',
    );
  });

  it('turns failing at exactly 24 hours of continuous failure', () => {
    assert.equal(FAILING_AFTER_SECONDS, 86_400);
    const base = { failingSince: FIRST, failedDeliveriesSinceLastSuccess: 3 };
    assert.equal(endpointHealth({ ...base, now: at(DAY - 1) }), 'enabled');
    assert.equal(endpointHealth({ ...base, now: at(DAY) }), 'failing');
  });

  it('is disabled only after 3 days AND at least 10 FAILED deliveries', () => {
    assert.equal(DISABLE_AFTER_SECONDS, 3 * 86_400);
    assert.equal(DISABLE_MIN_FAILED_DELIVERIES, 10);
    const h = (ms: number, failed: number) =>
      endpointHealth({ now: at(ms), failingSince: FIRST, failedDeliveriesSinceLastSuccess: failed });
    assert.equal(h(3 * DAY, 10), 'disabled');
    assert.equal(h(3 * DAY - 1, 10), 'failing');
    assert.equal(h(3 * DAY, 9), 'failing');
    assert.equal(h(30 * DAY, 9), 'failing');
    assert.equal(h(2 * DAY, 500), 'failing');
    assert.equal(h(HOUR, 500), 'enabled');
  });

  it('never disables before warning, and never goes back while failure continues (property)', () => {
    const order = { enabled: 0, failing: 1, disabled: 2 } as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 * DAY }),
        fc.integer({ min: 0, max: 10 * DAY }),
        fc.nat(50),
        (a, b, failed) => {
          const [early, late] = a <= b ? [a, b] : [b, a];
          const input = { failingSince: FIRST, failedDeliveriesSinceLastSuccess: failed };
          const before = endpointHealth({ ...input, now: at(early) });
          const after = endpointHealth({ ...input, now: at(late) });
          assert.ok(order[after] >= order[before]);
          if (after === 'disabled') assert.ok(late >= FAILING_AFTER_SECONDS * 1000);
        },
      ),
    );
  });
});
