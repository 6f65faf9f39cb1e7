import type { Clock } from '../clock.ts';
import { clockedCache } from '../clocked-cache.ts';
import type { SecretBox } from './secret-box.ts';

export interface SecretCacheOptions {
  /** Opened secrets kept at most; the least recently used is dropped first. */
  maxEntries?: number;
  /** How long an opened secret is reused before it is opened again. */
  ttlMs?: number;
}

export interface SecretCache {
  /** The secret sealed in `sealed` for `endpointId`; throws as {@link SecretBox.decrypt} does. */
  open(endpointId: string, sealed: string): string;
}

/**
 * Opens sealed endpoint secrets once and reuses them for a short time, so a worker does not run
 * AES-GCM for every delivery of a busy endpoint. The sealed value is part of the key: a rotation
 * writes a new sealed value (a fresh IV even for the same secret), so the first delivery after it
 * misses and opens the new one; nothing has to be invalidated. The bound and the lifetime keep
 * secrets of deleted or long-rotated endpoints from staying in memory. A value that fails to open
 * is not cached: the next delivery tries again (and fails again, until the master key is fixed).
 */
export function createSecretCache(
  box: SecretBox,
  clock: Clock,
  options: SecretCacheOptions = {},
): SecretCache {
  const entries = clockedCache<string, string>(clock, {
    maxEntries: options.maxEntries ?? 1000,
    ttlMs: options.ttlMs ?? 5 * 60_000,
  });

  return {
    open(endpointId, sealed) {
      const key = `${endpointId}\u0000${sealed}`;
      const hit = entries.get(key);
      if (hit !== undefined) return hit;
      const secret = box.decrypt(sealed, endpointId);
      entries.set(key, secret);
      return secret;
    },
  };
}
