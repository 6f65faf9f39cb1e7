import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../clock.ts';
import type { Database } from '../storage/db.ts';
import { eventWritten } from '../storage/repositories/events.ts';

/**
 * Events written to the outbox, by type. Process-wide because the outbox insert runs deep inside
 * a use case's transaction, where no service object is at hand; each service's registry exposes it.
 * The insert tells the `eventWritten` diagnostics channel, subscribed once here when this module
 * loads. It counts the insert, so an event of a transaction that later rolled back (an error path)
 * is counted too.
 */
const eventsWritten = new Counter({
  name: 'paygate_events_written_total',
  help: 'Events written to the outbox, by event type',
  labelNames: ['type'] as const,
  registers: [],
});
eventWritten.subscribe((message) => {
  if (
    typeof message === 'object' &&
    message !== null &&
    'type' in message &&
    typeof message.type === 'string'
  ) {
    eventsWritten.inc({ type: message.type });
  }
});

/** Scheduled attempts beyond the sixth (the last slot of the schedule) share one label value. */
function attemptLabel(attemptNumber: number, manual: boolean): string {
  if (manual) return 'manual';
  return attemptNumber <= 6 ? String(attemptNumber) : '7+';
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * The service's Prometheus metrics, in one registry per process (tests run several services in
 * one process; each has its own). Counters and histograms are updated where the work happens;
 * backlogs and pool use are read when scraped, so they are true for all processes at that moment.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'paygate_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'paygate_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });

  readonly gatewayCalls = new Counter({
    name: 'paygate_gateway_calls_total',
    help: 'Calls to payment gateways, by gateway, operation and outcome (error: the connector threw)',
    labelNames: ['gateway', 'operation', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly gatewayDuration = new Histogram({
    name: 'paygate_gateway_call_duration_seconds',
    help: 'Time a gateway call took, by gateway and operation',
    labelNames: ['gateway', 'operation'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'paygate_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts recorded, by outcome (delivered, retrying, failed) and attempt number',
    labelNames: ['outcome', 'attempt'] as const,
    registers: [this.registry],
  });

  readonly webhookLag = new Histogram({
    name: 'paygate_webhook_delivery_lag_seconds',
    help: 'From the commit of an event to the first delivery attempt',
    buckets: LAG_BUCKETS,
    registers: [this.registry],
  });

  constructor(db: Database, clock: Clock) {
    this.registry.registerMetric(eventsWritten);

    new Gauge({
      name: 'paygate_webhook_backlog',
      help: 'Webhook deliveries pending, and of those already due now',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const { rows } = await db.query<{ pending: number; due: number }>(
          `SELECT count(*)::int AS pending, count(*) FILTER (WHERE next_attempt_at <= $1)::int AS due
             FROM webhook_deliveries WHERE status = 'PENDING'`,
          [clock.now()],
        );
        this.set({ state: 'pending' }, rows[0]?.pending ?? 0);
        this.set({ state: 'due' }, rows[0]?.due ?? 0);
      },
    });

    new Gauge({
      name: 'paygate_webhook_oldest_due_seconds',
      help: 'How long the oldest due webhook delivery has been waiting (0 when none is due)',
      registers: [this.registry],
      async collect() {
        const now = clock.now();
        const { rows } = await db.query<{ oldest: Date | null }>(
          `SELECT min(next_attempt_at) AS oldest FROM webhook_deliveries
            WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= $1 AND status = 'PENDING'`,
          [now],
        );
        const oldest = rows[0]?.oldest;
        this.set(oldest ? Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000) : 0);
      },
    });

    new Gauge({
      name: 'paygate_reconciliation_backlog',
      help: 'Charges and refunds whose outcome is still open and due for a check with the gateway',
      labelNames: ['kind'] as const,
      registers: [this.registry],
      async collect() {
        const now = clock.now();
        const charges = await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM charge_attempts WHERE next_check_at IS NOT NULL AND next_check_at <= $1',
          [now],
        );
        const refunds = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM refunds WHERE status = 'PENDING' AND next_sync_at <= $1`,
          [now],
        );
        this.set({ kind: 'charge' }, charges.rows[0]?.n ?? 0);
        this.set({ kind: 'refund' }, refunds.rows[0]?.n ?? 0);
      },
    });

    new Gauge({
      name: 'paygate_db_pool_connections',
      help: 'Database connections of this process by state (in_use, idle, waiting: callers queued for one)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const use = db.poolUse();
        if (!use) return;
        this.set({ state: 'in_use' }, use.total - use.idle);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'waiting' }, use.waiting);
      },
    });
  }

  /** One recorded webhook attempt; the first scheduled one also measures the event's lag. */
  recordWebhookAttempt(attempt: {
    attemptNumber: number;
    manual: boolean;
    outcome: 'delivered' | 'retrying' | 'failed';
    firstLagSeconds: number | null;
  }): void {
    this.webhookAttempts.inc({
      outcome: attempt.outcome,
      attempt: attemptLabel(attempt.attemptNumber, attempt.manual),
    });
    if (attempt.firstLagSeconds !== null) this.webhookLag.observe(Math.max(0, attempt.firstLagSeconds));
  }
}
