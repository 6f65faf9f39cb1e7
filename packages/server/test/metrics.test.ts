import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { type MetricsServer, startMetricsServer } from '../src/observability/metrics-server.ts';
import { createDeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { databaseKinds } from './support/databases.ts';
import { paymentHelpers } from './support/payments.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';
import { emitCanceledEvent } from './support/webhook-events.ts';
import { answer, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

/** The value of one sample of the exposition, matched by name and exactly these labels (0 if absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '')
      .split(/,(?=[a-z_]+=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (have === wanted) return Number(match[3]);
  }
  return 0;
}

for (const kind of databaseKinds()) {
  describe(`GET /metrics after a known workload (${kind})`, () => {
    let svc: TestService;
    let metrics: MetricsServer;
    let merchant: MerchantKeys;
    const receivers: WebhookReceiver[] = [];

    const scrape = async () => {
      const response = await request(`${metrics.url}/metrics`);
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      return response.body.text();
    };

    before(async () => {
      svc = await startTestService(kind);
      metrics = await startMetricsServer({ registry: svc.ctx.metrics.registry, port: 0, host: '127.0.0.1' });
      merchant = await svc.createMerchant('Metrics shop');
    });
    after(async () => {
      await metrics.close();
      await Promise.all(receivers.map((r) => r.close()));
      await svc.close();
    });

    it('counts requests by route and status, gateway calls by outcome, events, and deliveries by outcome and attempt', async () => {
      // The events counter is process-wide (the outbox insert has no service at hand): compare with before.
      const before = await scrape();
      const ok = await startWebhookReceiver(answer(200, 'ok'));
      const broken = await startWebhookReceiver(answer(500, 'down'));
      receivers.push(ok, broken);
      for (const url of [ok.url, broken.url]) {
        const created = await svc.request({
          method: 'POST',
          url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
          headers: { 'x-admin-token': ADMIN_TOKEN },
          body: { url, livemode: false },
        });
        assert.equal(created.statusCode, 201, created.body);
      }

      const pay = paymentHelpers(svc, () => merchant);
      for (const [token, status] of [
        ['tok_sim_approve', 200],
        ['tok_sim_approve', 200],
        ['tok_sim_decline', 402],
      ] as const) {
        const intent = await pay.create();
        const confirmed = await pay.confirm(intent.id, { payment_method_token: token });
        assert.equal(confirmed.statusCode, status, confirmed.body);
      }
      await emitCanceledEvent(svc, merchant);
      const missing = await svc.request({
        method: 'GET',
        url: '/v1/payment-intents/pi_missing',
        key: merchant.secretTest,
      });
      assert.equal(missing.statusCode, 404);

      // Four events, each to two endpoints: eight first attempts, four delivered, four to retry.
      const beforeAttempts = await scrape();
      assert.equal(sample(beforeAttempts, 'paygate_webhook_backlog', { state: 'pending' }), 8);
      assert.equal(sample(beforeAttempts, 'paygate_webhook_backlog', { state: 'due' }), 8);
      const worker = createDeliveryWorker(svc.ctx, { timeoutMs: 2000 });
      try {
        assert.equal(await worker.runOnce(), 8);
      } finally {
        await worker.stop();
      }
      const text = await scrape();

      const requests = (route: string, status: string, method = 'POST') =>
        sample(text, 'paygate_http_requests_total', { method, route, status });
      assert.equal(requests('/v1/payment-intents', '200'), 4);
      assert.equal(requests('/v1/payment-intents/:id/confirm', '200'), 2);
      assert.equal(requests('/v1/payment-intents/:id/confirm', '402'), 1);
      assert.equal(requests('/v1/payment-intents/:id/cancel', '200'), 1);
      assert.equal(requests('/v1/payment-intents/:id', '404', 'GET'), 1);
      assert.equal(
        sample(text, 'paygate_http_request_duration_seconds_count', {
          method: 'POST',
          route: '/v1/payment-intents/:id/confirm',
        }),
        3,
      );

      const calls = (outcome: string) =>
        sample(text, 'paygate_gateway_calls_total', { gateway: 'sim', operation: 'charge', outcome });
      assert.equal(calls('succeeded'), 2);
      assert.equal(calls('failed'), 1);
      assert.equal(
        sample(text, 'paygate_gateway_call_duration_seconds_count', { gateway: 'sim', operation: 'charge' }),
        3,
      );

      const events = (type: string) =>
        sample(text, 'paygate_events_written_total', { type }) -
        sample(before, 'paygate_events_written_total', { type });
      assert.equal(events('payment_intent.succeeded'), 2);
      assert.equal(events('payment_intent.failed'), 1);
      assert.equal(events('payment_intent.canceled'), 1);

      assert.equal(
        sample(text, 'paygate_webhook_delivery_attempts_total', { outcome: 'delivered', attempt: '1' }),
        4,
      );
      assert.equal(
        sample(text, 'paygate_webhook_delivery_attempts_total', { outcome: 'retrying', attempt: '1' }),
        4,
      );
      assert.equal(sample(text, 'paygate_webhook_delivery_lag_seconds_count'), 8);
      // The four failed ones wait for their second slot: pending, not due.
      assert.equal(sample(text, 'paygate_webhook_backlog', { state: 'pending' }), 4);
      assert.equal(sample(text, 'paygate_webhook_backlog', { state: 'due' }), 0);
      assert.equal(sample(text, 'paygate_reconciliation_backlog', { kind: 'charge' }), 0);
      assert.equal(sample(text, 'paygate_reconciliation_backlog', { kind: 'refund' }), 0);
      if (kind === 'postgres') {
        assert.ok(sample(text, 'paygate_db_pool_connections', { state: 'idle' }) >= 1, text);
        assert.match(text, /^paygate_db_pool_connections\{state="waiting"\} \d+$/m);
      } else {
        assert.doesNotMatch(text, /^paygate_db_pool_connections\{/m);
      }
    });

    it('reports how long the oldest due delivery has waited, on the service clock', async () => {
      svc.clock.advance(120);
      const text = await scrape();
      // The four retries came due 60 s after their first attempt (the schedule's second slot).
      assert.equal(sample(text, 'paygate_webhook_backlog', { state: 'due' }), 4);
      assert.ok(sample(text, 'paygate_webhook_oldest_due_seconds') >= 60, text);
    });

    it('answers 404 for anything but GET /metrics', async () => {
      const response = await request(`${metrics.url}/v1/payment-intents`);
      assert.equal(response.statusCode, 404);
      await response.body.dump();
    });
  });
}

describe('the documented dashboard and alerts', () => {
  it('use only metrics the service exposes', async () => {
    const svc = await startTestService('embedded');
    try {
      const exposed = new Set((await svc.ctx.metrics.registry.getMetricsAsJSON()).map((m) => m.name));
      const histogramSeries = /_(bucket|count|sum)$/;
      // The dashboard's queries, and the metrics and alerting sections of the operations guide (the
      // rest of that guide names other paygate_* things: metadata keys, cookies, report members).
      const operations = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
      const metricsSection = operations.slice(
        operations.indexOf('\n## Metrics\n'),
        operations.indexOf('\n## Health and shutdown'),
      );
      assert.ok(
        metricsSection.length > 500,
        'docs/operations.md has its Metrics section before Health and shutdown',
      );
      const sources = [
        {
          file: 'docs/grafana-dashboard.json',
          text: readFileSync(new URL('../../../docs/grafana-dashboard.json', import.meta.url), 'utf8'),
        },
        { file: 'docs/operations.md#metrics', text: metricsSection },
      ];
      for (const { file, text } of sources) {
        const used = new Set(text.match(/\bpaygate_[a-z_]+/g) ?? []);
        assert.ok(used.size >= 5, `${file} names the metrics`);
        for (const name of used) {
          const base = exposed.has(name) ? name : name.replace(histogramSeries, '');
          assert.ok(exposed.has(base), `${file} uses ${name}, which the service does not expose`);
        }
      }
    } finally {
      await svc.close();
    }
  });
});
