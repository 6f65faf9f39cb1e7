import { LRUCache } from 'lru-cache';
import type { Clock } from './clock.ts';

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
