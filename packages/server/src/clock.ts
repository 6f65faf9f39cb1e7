import { LRUCache } from 'lru-cache';
/**
 * The one source of "now" for everything time-driven (expiry, delayed outcomes, retry schedules,
 * key lifetimes, signature tolerance). Production uses the system clock; tests and the operator's
 * test-clock endpoint move a shifted clock instead of sleeping.
 */
export interface Clock {
  now(): Date;
}

/** A clock the operator's test-clock endpoint can move forward (in memory, or shared through the database). */
export interface TestClock extends Clock {
  advance(seconds: number): Date | Promise<Date>;
}

export const systemClock: Clock = { now: () => new Date() };

/** The instant `seconds` after `instant`. */
export function addSeconds(instant: Date, seconds: number): Date {
  return new Date(instant.getTime() + seconds * 1000);
}

/** A clock that runs with real time plus an offset that can only move forward. */
export class ShiftedClock implements Clock {
  private offsetMs = 0;
  constructor(private readonly base: Clock = systemClock) {}

  now(): Date {
    return new Date(this.base.now().getTime() + this.offsetMs);
  }

  advance(seconds: number): Date {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('a clock only moves forward');
    this.offsetMs += seconds * 1000;
    return this.now();
  }
}

/** A clock that stands still until told to move: for unit tests that need exact instants. */
export class ManualClock implements Clock {
  private current: Date;
  constructor(start: Date = new Date('2026-01-01T00:00:00.000Z')) {
    this.current = new Date(start.getTime());
  }
  now(): Date {
    return new Date(this.current.getTime());
  }
  advance(seconds: number): Date {
    this.current = new Date(this.current.getTime() + seconds * 1000);
    return this.now();
  }
}

/**
 * A bounded cache whose entries live `ttlMs` on the injected Clock (so the test clock ages them
 * too), least recently used dropped first. `ttlResolution: 0` reads the clock on every check:
 * lru-cache otherwise memoises "now" for a millisecond with a timer, which a manual clock breaks.
 * lru-cache keeps an entry while its age is at most `ttl`; ours lives strictly less than `ttlMs`
 * (an entry read exactly `ttlMs` later is gone), hence `ttlMs - 1` on whole milliseconds.
 */
export function clockedCache<K extends {}, V extends {}>(
  clock: Clock,
  options: { maxEntries: number; ttlMs: number },
): LRUCache<K, V> {
  return new LRUCache<K, V>({
    max: options.maxEntries,
    ttl: options.ttlMs - 1,
    ttlResolution: 0,
    perf: { now: () => clock.now().getTime() },
  });
}
