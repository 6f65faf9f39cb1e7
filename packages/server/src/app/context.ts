import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { AccountConnectors } from '../gateways/account-connectors.ts';
import type { GatewayRegistry } from '../gateways/registry.ts';
import type { ServiceMetrics } from '../observability/metrics.ts';
import type { Database } from '../storage/db.ts';
import type { EndpointNotices } from '../webhooks/delivery-context.ts';

/**
 * Where a use case reports what the operator must know but the caller cannot be told (a gateway
 * answer that contradicts the books, met on a worker's or a request's way). Fields carry the
 * evidence: ids, amounts, gateway references; never a body or card data.
 */
export interface AppLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** What every use case may depend on: the database, the clock and the gateways. */
export interface AppContext {
  db: Database;
  clock: Clock;
  /**
   * Real time, never moved by the test clock: for what a party outside the service checks against
   * its own clock, such as the `t` of a webhook's Service-Signature (a receiver rejects a `t` more
   * than 300 s from its time). `clock` drives business time (expiry, schedules, event `created`).
   */
  wallClock: Clock;
  gateways: GatewayRegistry;
  /** Connectors of merchants' own gateway accounts (credentials sealed under the master key). */
  gatewayAccounts: AccountConnectors;
  /** Derived from the master key; gateway return addresses carry an HMAC under it (app/gateways/returns.ts). */
  gatewayReturnKey: Buffer;
  /** Derived from the master key; client secrets are an HMAC under it. */
  clientSecretKey: Buffer;
  /** Signs list cursors, so that a position this service never handed out is refused. */
  cursorKey: Buffer;
  /** Seals and opens webhook signing secrets at rest (a key derived from the master key). */
  secretBox: SecretBox;
  /**
   * Whether test-mode webhook endpoints may be on loopback (how developers receive test webhooks
   * locally). Private, link-local and metadata addresses are refused in both modes regardless.
   */
  testWebhooksAllowLoopback: boolean;
  /** Where this service is reachable from browsers and gateways (no trailing slash). */
  publicUrl: string;
  /** Prometheus metrics of this process (served by the metrics listener when configured). */
  metrics: ServiceMetrics;
  /**
   * Tells a merchant's owners and developers when a webhook endpoint is failing, about to be
   * disabled or disabled (mail queued in the caller's transaction). Plugged in here rather than
   * imported by the delivery worker: delivering does not depend on how the team is told.
   */
  endpointNotices: EndpointNotices;
  /** The process's log, for warnings with evidence (see AppLogger). */
  log: AppLogger;
}
