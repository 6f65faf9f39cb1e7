import { LRUCache } from 'lru-cache';
import type { Clock } from '../../clock.ts';

interface Window {
  hits: number;
  startedAtMs: number;
}

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * The in-process store of @fastify/rate-limit, with fixed windows measured on the injected clock
 * instead of the system time: the test clock moves budgets like everything else time-driven, and
 * tests need no real one-second windows. (With Redis, Redis's own TTL decides.) The plugin builds
 * its store with `new`, so this returns a class; every instance shares one bounded map.
 */
export function clockedRateLimitStore(clock: Clock, windowMs: number, maxKeys = 10_000) {
  const windows = new LRUCache<string, Window>({ max: maxKeys });
  return class ClockedRateLimitStore {
    incr(key: string, callback: IncrCallback): void {
      const nowMs = clock.now().getTime();
      let window = windows.get(key);
      if (!window || window.startedAtMs + windowMs <= nowMs) {
        window = { hits: 0, startedAtMs: nowMs };
        windows.set(key, window);
      }
      window.hits += 1;
      callback(null, { current: window.hits, ttl: window.startedAtMs + windowMs - nowMs });
    }

    child(): ClockedRateLimitStore {
      return this;
    }
  };
}
