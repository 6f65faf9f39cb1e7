import { clientOfUserAgent } from '../../domain/client-user-agent.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import {
  addClientUsage,
  type ClientUsageRow,
  listClientUsage,
} from '../../storage/repositories/client-usage.ts';
import type { AppContext } from '../context.ts';

/** How often, on the service's clock, a process adds its counts to the database. */
export const CLIENT_TELEMETRY_FLUSH_MS = 60_000;
/** Groups kept in memory between flushes; beyond it new groups wait for the next flush. */
const MAX_GROUPS = 10_000;

/**
 * Counts API requests per (merchant, mode, client, version) in memory, from the User-Agent, and
 * adds the counts to `client_usage` once per CLIENT_TELEMETRY_FLUSH_MS of the clock and at
 * shutdown: a busy API pays a map update per request, never a database write.
 */
export class ClientTelemetry {
  private groups = new Map<string, ClientUsageRow>();
  private lastFlushAt: number;
  private flushing: Promise<void> | null = null;

  constructor(private readonly ctx: AppContext) {
    this.lastFlushAt = ctx.clock.now().getTime();
  }

  record(scope: TenantScope, userAgent: string | undefined): void {
    const now = this.ctx.clock.now();
    const { client, version } = clientOfUserAgent(userAgent);
    const key = `${scope.merchantId}\u0000${scope.livemode}\u0000${client}\u0000${version}`;
    const group = this.groups.get(key);
    if (group) {
      group.request_count += 1;
      group.last_seen_at = now;
    } else if (this.groups.size < MAX_GROUPS) {
      this.groups.set(key, {
        merchant_id: scope.merchantId,
        livemode: scope.livemode,
        client,
        version,
        request_count: 1,
        first_seen_at: now,
        last_seen_at: now,
      });
    }
  }

  /** Flushes when the interval has passed on the clock; answers the flush under way, if any. */
  flushIfDue(): Promise<void> | null {
    if (this.ctx.clock.now().getTime() - this.lastFlushAt < CLIENT_TELEMETRY_FLUSH_MS) return null;
    return this.flush();
  }

  /** Adds every count gathered so far; counts a failed write could not add are kept for the next. */
  flush(): Promise<void> {
    // A flush under way holds only what was gathered before it began: wait for it, then add the
    // rest, so that "every count so far" holds for a caller (shutdown, a test) who asks meanwhile.
    if (this.flushing) return this.flushing.catch(() => undefined).then(() => this.flush());
    this.lastFlushAt = this.ctx.clock.now().getTime();
    const batch = this.groups;
    this.groups = new Map();
    // Cleared in a callback, which always runs after this assignment: a batch with nothing to
    // write finishes at once, and clearing inside it would leave a finished flush in place for good.
    const run: Promise<void> = this.write(batch).finally(() => {
      if (this.flushing === run) this.flushing = null;
    });
    this.flushing = run;
    return run;
  }

  private async write(batch: Map<string, ClientUsageRow>): Promise<void> {
    for (const [key, row] of batch) {
      try {
        await addClientUsage(this.ctx.db, row);
        batch.delete(key);
      } catch (error) {
        this.keep(batch);
        throw error;
      }
    }
  }

  private keep(unsent: Map<string, ClientUsageRow>): void {
    for (const [key, row] of unsent) {
      const newer = this.groups.get(key);
      if (!newer) this.groups.set(key, row);
      else {
        newer.request_count += row.request_count;
        newer.first_seen_at = row.first_seen_at;
      }
    }
  }
}

/** The clients page: what the telemetry recorded for the tenant. */
export async function listClients(ctx: AppContext, scope: TenantScope) {
  const rows = await listClientUsage(ctx.db, scope.merchantId, scope.livemode);
  return rows.map((row) => ({
    client: row.client,
    version: row.version,
    request_count: row.request_count,
    first_seen_at: row.first_seen_at.toISOString(),
    last_seen_at: row.last_seen_at.toISOString(),
  }));
}
