import { performance } from 'node:perf_hooks';
import type {
  ChargeRequest,
  GatewayConnector,
  RefundRequest,
  SyncChargeRequest,
  SyncRefundRequest,
} from '../gateways/connector.ts';
import { GatewayRegistry } from '../gateways/registry.ts';
import type { ServiceMetrics } from './metrics.ts';

type Operation = 'charge' | 'syncCharge' | 'refund' | 'syncRefund';
const OPERATION_LABELS: Record<Operation, string> = {
  charge: 'charge',
  syncCharge: 'sync_charge',
  refund: 'refund',
  syncRefund: 'sync_refund',
};

/**
 * The same connector, with every call to its gateway counted by outcome (the outcome's kind, or
 * `error` when the connector threw) and timed. Durations are real elapsed time (a monotonic
 * clock), not the service's Clock: a latency is not a business time.
 */
export function instrumentConnector(connector: GatewayConnector, metrics: ServiceMetrics): GatewayConnector {
  async function timed<T extends { kind: string }>(operation: Operation, call: () => Promise<T>): Promise<T> {
    const labels = { gateway: connector.id, operation: OPERATION_LABELS[operation] };
    const started = performance.now();
    let outcome = 'error';
    try {
      const result = await call();
      outcome = result.kind;
      return result;
    } finally {
      metrics.gatewayCalls.inc({ ...labels, outcome });
      metrics.gatewayDuration.observe(labels, (performance.now() - started) / 1000);
    }
  }
  // A copy of the connector (its own members, and its prototype for a class) with the four calls
  // timed: every other member, and any a later version of the interface adds, is the connector's.
  const instrumented: GatewayConnector = Object.assign(
    Object.create(Object.getPrototypeOf(connector)),
    connector,
    {
      charge: (request: ChargeRequest) => timed('charge', () => connector.charge(request)),
      syncCharge: (request: SyncChargeRequest) => timed('syncCharge', () => connector.syncCharge(request)),
      refund: (request: RefundRequest) => timed('refund', () => connector.refund(request)),
      syncRefund: (request: SyncRefundRequest) => timed('syncRefund', () => connector.syncRefund(request)),
    },
  );
  return instrumented;
}

/** A registry of the same gateways, each instrumented. */
export function instrumentGateways(gateways: GatewayRegistry, metrics: ServiceMetrics): GatewayRegistry {
  return new GatewayRegistry(
    gateways.ids().flatMap((id) => {
      const connector = gateways.get(id);
      return connector ? [instrumentConnector(connector, metrics)] : [];
    }),
  );
}
