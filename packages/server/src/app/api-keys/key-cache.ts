// The API keys a process has looked up lately, for the authentication of every API request
// (http/plugins/auth.ts): what it remembers, for how long, and when it forgets.
import type { LRUCache } from 'lru-cache';
import { clockedCache } from '../../clock.ts';
import {
  API_KEY_CHANGES_CHANNEL,
  type ApiKeyRow,
  findActiveApiKeyByHash,
} from '../../storage/repositories/api-keys.ts';
import type { AppContext } from '../context.ts';

const KEY_CACHE_TTL_MS = 5_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;
/** Unknown keys are remembered briefly: keys are random, so one that is unknown now stays so. */
const UNKNOWN_KEY_CACHE_TTL_MS = 5_000;
const UNKNOWN_KEY_CACHE_MAX_ENTRIES = 10_000;

/**
 * Keys, remembered for a few seconds so that a busy merchant's requests do not each pay a
 * database round trip for authentication, and a flood of one unknown key costs one lookup (keys
 * are random: one unknown now stays unknown). A revocation or a disabled merchant is announced on
 * API_KEY_CHANGES_CHANNEL at its commit and every process forgets the key then; the TTL bounds
 * what a lost notification could cost.
 */
export class ApiKeyCache {
  private readonly known: LRUCache<string, ApiKeyRow>;
  private readonly unknown: LRUCache<string, true>;
  private readonly inFlight = new Map<string, Promise<ApiKeyRow | null>>();
  constructor(private readonly ctx: AppContext) {
    this.known = clockedCache<string, ApiKeyRow>(ctx.clock, {
      maxEntries: KEY_CACHE_MAX_ENTRIES,
      ttlMs: KEY_CACHE_TTL_MS,
    });
    this.unknown = clockedCache<string, true>(ctx.clock, {
      maxEntries: UNKNOWN_KEY_CACHE_MAX_ENTRIES,
      ttlMs: UNKNOWN_KEY_CACHE_TTL_MS,
    });
  }

  /** The cached answer: a row, `null` for a key known to be unknown, `undefined` when not cached. */
  cached(keyHash: string): ApiKeyRow | null | undefined {
    const row = this.known.get(keyHash);
    // A rolled key's grace period ends on the clock, with no announcement: checked on every use.
    if (row?.expires_at && row.expires_at <= this.ctx.clock.now()) {
      this.known.delete(keyHash);
      return undefined;
    }
    if (row) return row;
    return this.unknown.get(keyHash) ? null : undefined;
  }

  /**
   * One database lookup per key at a time: the concurrent first requests of a key this process
   * has not seen lately (a burst after a restart) share it instead of each paying a round trip.
   */
  lookUp(keyHash: string): Promise<ApiKeyRow | null> {
    const pending = this.inFlight.get(keyHash);
    if (pending) return pending;
    const lookup = findActiveApiKeyByHash(this.ctx.db, keyHash, this.ctx.clock.now())
      .then((row) => {
        // A revocation announced while the lookup ran (forget() dropped it) must not be undone
        // by caching what was read before it.
        if (this.inFlight.get(keyHash) === lookup) {
          if (row) this.known.set(keyHash, row);
          else this.unknown.set(keyHash, true);
        }
        return row;
      })
      .finally(() => {
        if (this.inFlight.get(keyHash) === lookup) this.inFlight.delete(keyHash);
      });
    this.inFlight.set(keyHash, lookup);
    return lookup;
  }

  /**
   * Every process forgets a revoked key (or a disabled merchant's keys) when the change commits:
   * listens on API_KEY_CHANGES_CHANNEL until the returned function is called.
   */
  listen(): Promise<() => Promise<void>> {
    return this.ctx.db.listen(API_KEY_CHANGES_CHANNEL, (payload) => this.forget(payload));
  }

  /** A key revoked (its hash) or `*` (a merchant disabled or enabled): forget it now, not after the TTL. */
  forget(keyHashOrAll: string): void {
    if (keyHashOrAll === '*') {
      this.known.clear();
      this.unknown.clear();
      this.inFlight.clear();
    } else {
      this.known.delete(keyHashOrAll);
      this.unknown.delete(keyHashOrAll);
      this.inFlight.delete(keyHashOrAll);
    }
  }
}
