import { type Clock, systemClock } from '../clock.ts';
import { createSecretBox } from '../crypto/secret-box.ts';
import { deriveSubKey } from '../domain/api-keys.ts';
import { createAccountConnectors } from '../gateways/account-connectors.ts';
import type { GatewayCallLogger } from '../gateways/http-executor.ts';
import type { GatewayRegistry } from '../gateways/registry.ts';
import { instrumentConnector, instrumentGateways } from '../observability/instrumented-gateways.ts';
import { ServiceMetrics } from '../observability/metrics.ts';
import type { Database } from '../storage/db.ts';
import type { AppContext, AppLogger } from './context.ts';
import { createEndpointNotices } from './webhooks/endpoint-notices.ts';

const stderrLogger: AppLogger = {
  warn(fields, message) {
    process.stderr.write(`${JSON.stringify({ level: 'warn', ...fields, msg: message })}\n`);
  },
};

export function createAppContext(options: {
  db: Database;
  clock: Clock;
  /** Real time for what outside parties check against their own clocks; the system clock unless a test injects one. */
  wallClock?: Clock;
  gateways: GatewayRegistry;
  masterKey: Buffer;
  publicUrl: string;
  /** Logs the calls of connectors built from merchants' gateway accounts. */
  gatewayLogger?: GatewayCallLogger;
  /** The process's log (AppContext.log); absent: one JSON line per warning on stderr, never dropped. */
  logger?: AppLogger;
  /** Default true: see AppContext. */
  testWebhooksAllowLoopback?: boolean;
}): AppContext {
  const metrics = new ServiceMetrics(options.db, options.clock);
  return {
    db: options.db,
    clock: options.clock,
    wallClock: options.wallClock ?? systemClock,
    gateways: instrumentGateways(options.gateways, metrics),
    gatewayAccounts: createAccountConnectors({
      box: createSecretBox(deriveSubKey(options.masterKey, 'gateway-credentials').toString('hex')),
      clock: options.clock,
      dependencies: {
        clock: options.clock,
        ...(options.gatewayLogger ? { logger: options.gatewayLogger } : {}),
        defaultReturnUrl: options.publicUrl,
      },
      wrap: (connector) => instrumentConnector(connector, metrics),
    }),
    metrics,
    clientSecretKey: deriveSubKey(options.masterKey, 'client-secret'),
    gatewayReturnKey: deriveSubKey(options.masterKey, 'gateway-return'),
    cursorKey: deriveSubKey(options.masterKey, 'list-cursor'),
    secretBox: createSecretBox(deriveSubKey(options.masterKey, 'webhook-secrets').toString('hex')),
    publicUrl: options.publicUrl,
    testWebhooksAllowLoopback: options.testWebhooksAllowLoopback ?? true,
    endpointNotices: createEndpointNotices({ publicUrl: options.publicUrl, clock: options.clock }),
    log: options.logger ?? options.gatewayLogger ?? stderrLogger,
  };
}
