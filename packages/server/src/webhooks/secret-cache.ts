import type { Clock } from '../clock.ts';
import type { SecretBox } from './secret-box.ts';

export interface SecretCacheOptions {
  /** Opened secrets kept at most; the oldest is dropped first. */
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
  const maxEntries = options.maxEntries ?? 1000;
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  // A Map keeps insertion order, so its first key is the oldest entry.
  const entries = new Map<string, { secret: string; expiresAtMs: number }>();

  return {
    open(endpointId, sealed) {
      const key = `${endpointId}\u0000${sealed}`;
      const nowMs = clock.now().getTime();
      const hit = entries.get(key);
      if (hit && hit.expiresAtMs > nowMs) return hit.secret;
      if (hit) entries.delete(key);
      const secret = box.decrypt(sealed, endpointId);
      entries.set(key, { secret, expiresAtMs: nowMs + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
      return secret;
    },
  };
}
