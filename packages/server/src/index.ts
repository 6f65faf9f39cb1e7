// @paygate/server: the one programmatic entry point of the service, for code outside this package
// (the benchmarks, the demo shop, tools). Everything else under src/ is internal and may change
// with any commit; what is exported here is kept working.
//
//   import { loadConfig, startService } from '@paygate/server';
//   const service = await startService(loadConfig({ PORT: '0', PAYGATE_DATA_DIR: './.paygate' }));
//   ... service.baseUrl ...
//   await service.stop();
//
// The parts below the service (a database, a context, a delivery worker) are for benchmarks that
// measure one part on its own: `bench/webhook-delivery.ts` is the example.
import type { AppContext } from './app/context.ts';
import { createAppContext } from './app/create-context.ts';
import { type Clock, systemClock } from './clock.ts';
import { buildEvent, type EventType } from './domain/events.ts';
import { GatewayRegistry } from './gateways/registry.ts';
import type { Database, Queryable } from './storage/db.ts';
import { insertEvent } from './storage/repositories/events.ts';

export type { AppContext } from './app/context.ts';
export { createMerchant } from './app/merchants/create-merchant.ts';
export { createWebhookEndpoint } from './app/webhooks/create-webhook-endpoint.ts';
export { type Clock, ManualClock, systemClock } from './clock.ts';
export { type Config, ConfigError, loadConfig } from './config.ts';
export { newId } from './domain/ids.ts';
// The dashboard overview's roll-up reads and rules, for bench/dashboard-overview.ts.
export { dayTotals, overviewWindow, periodTotals, topDeclineReasons } from './domain/overview.ts';
export { type RunningService, startService } from './service.ts';
export { type Database, type Queryable, together, WAKE_UP_SQL, Wakeups } from './storage/db.ts';
export { migrate } from './storage/migrate.ts';
export { sumDeclineReasons, sumSettledTransactions } from './storage/repositories/overview.ts';
// Capture later's bench explains the statements these send (bench/lib/capture-cost.ts).
export { claimLapsedAuthorizations } from './storage/repositories/payment-intents.ts';
export { searchPaymentIntents } from './storage/repositories/payment-search.ts';
export { createDeliveryWorker, type DeliveryWorker } from './webhooks/delivery-worker.ts';

/**
 * A database: PostgreSQL at `databaseUrl`, else the embedded one in `dataDir`, else (both null)
 * an embedded database in memory that is gone when closed. Not migrated: call {@link migrate}.
 */
export async function openDatabase(options: {
  databaseUrl?: string | null;
  dataDir?: string | null;
  maxConnections?: number;
  /** PostgreSQL only: pipeline a transaction's statements (default true; false for A/B benchmarks). */
  pipeline?: boolean;
}): Promise<Database> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./storage/postgres.ts');
    return openPostgres({
      connectionString: options.databaseUrl,
      ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
      ...(options.pipeline !== undefined ? { pipeline: options.pipeline } : {}),
    });
  }
  const { openEmbedded } = await import('./storage/embedded.ts');
  return openEmbedded(options.dataDir ?? null);
}

/** What the use cases need, over `db`, with no gateways: enough to drive webhooks and merchants. */
export function createContext(options: {
  db: Database;
  masterKey: Buffer;
  clock?: Clock;
  publicUrl?: string;
}): AppContext {
  return createAppContext({
    db: options.db,
    clock: options.clock ?? systemClock,
    gateways: new GatewayRegistry([]),
    masterKey: options.masterKey,
    publicUrl: options.publicUrl ?? 'http://localhost:8080',
  });
}

/**
 * Writes one event about `object` in `q` (a transaction, to commit it with other work), with a
 * delivery for each subscribed endpoint, as a use case does. Returns the event's id.
 */
export async function recordEvent(
  ctx: AppContext,
  q: Queryable,
  input: {
    merchantId: string;
    type: EventType;
    object: { id: string } & Record<string, unknown>;
    livemode: boolean;
  },
): Promise<string> {
  const event = buildEvent(input.type, input.object, input.livemode, ctx.clock.now());
  await insertEvent(q, input.merchantId, input.object.id, event);
  return event.envelope.id;
}
