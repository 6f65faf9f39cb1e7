import type { Clock } from '../clock.ts';
import type { GatewayRegistry } from '../gateways/registry.ts';
import type { Database } from '../storage/db.ts';

/** What every use case may depend on: the database, the clock and the gateways. */
export interface AppContext {
  db: Database;
  clock: Clock;
  gateways: GatewayRegistry;
  /** Derived from the master key; client secrets are an HMAC under it. */
  clientSecretKey: Buffer;
  /** Where this service is reachable from browsers and gateways (no trailing slash). */
  publicUrl: string;
}
