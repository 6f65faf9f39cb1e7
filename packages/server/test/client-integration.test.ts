import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  AmountError,
  AuthenticationError,
  CardError,
  IdempotencyError,
  InvalidRequestError,
  InvalidStateError,
  NotFoundError,
  Paygate,
  PaygateConfigurationError,
  type WebhookEvent,
  webhooks,
} from '@paygate/node';
import { createDeliveryWorker, type DeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

/**
 * The reference client against the real service, in-process on the embedded database, over real
 * HTTP: the client alone drives the flow, as a merchant's server would.
 */
describe('@paygate/node against the real service', () => {
  let svc: TestService;
  let merchant: MerchantKeys;
  let paygate: Paygate;
  let baseUrl: string;

  before(async () => {
    svc = await startTestService('embedded');
    merchant = await svc.createMerchant('Client shop');
    const address = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `${address}/`;
    paygate = new Paygate({ apiKey: merchant.secretTest, baseUrl });
  });
  after(() => svc.close());

  /** A merchant's webhook receiver: raw body, signature checked by the client, events recorded. */
  async function startReceiver(
    secret: () => string,
  ): Promise<{ server: Server; url: string; events: WebhookEvent[] }> {
    const events: WebhookEvent[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        try {
          const event = webhooks.constructEvent(
            Buffer.concat(chunks),
            String(request.headers['service-signature']),
            secret(),
          );
          events.push(event);
          response.writeHead(200).end();
        } catch {
          response.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, url: `http://localhost:${(server.address() as AddressInfo).port}/webhooks`, events };
  }

  it('runs the whole flow with the client alone: create, confirm, webhook, refund, list', async () => {
    let secret = '';
    const receiver = await startReceiver(() => secret);
    const worker: DeliveryWorker = createDeliveryWorker(svc.ctx);
    try {
      const registered = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { url: receiver.url, livemode: false },
      });
      assert.equal(registered.statusCode, 201, registered.body);
      secret = registered.json().secret;

      const intent = await paygate.paymentIntents.create({
        amount_minor: 5000,
        currency: 'EUR',
        gateway_id: 'sim',
      });
      const confirmed = await paygate.paymentIntents.confirm(intent.id, {
        payment_method_token: 'tok_sim_approve',
      });
      assert.equal(confirmed.status, 'SUCCEEDED');

      await worker.runOnce();
      const succeeded = receiver.events.find((e) => e.type === 'payment_intent.succeeded');
      assert.ok(succeeded, 'the receiver verified payment_intent.succeeded');
      assert.equal((succeeded.data.object as { id: string }).id, intent.id);

      const partial = await paygate.refunds.create({ payment_intent_id: intent.id, amount_minor: 1200 });
      assert.equal(partial.status, 'SUCCEEDED');
      const rest = await paygate.refunds.create({ payment_intent_id: intent.id });
      assert.equal(rest.amount_minor, 3800);
      await assert.rejects(
        paygate.refunds.create({ payment_intent_id: intent.id, amount_minor: 1 }),
        AmountError,
      );
      assert.equal((await paygate.refunds.retrieve(partial.id)).amount_minor, 1200);
      assert.equal((await paygate.paymentIntents.retrieve(intent.id)).amount_refunded_minor, 5000);

      await worker.runOnce();
      const refundEvents = receiver.events.filter((e) => e.type === 'refund.succeeded');
      assert.equal(refundEvents.length, 2);

      const seen = [];
      for await (const txn of paygate.transactions.list({ limit: 1 })) {
        if (txn.payment_intent_id === intent.id) seen.push(`${txn.type}:${txn.status}:${txn.amount_minor}`);
      }
      assert.deepEqual(seen.sort(), [
        'PAYMENT:APPROVED:5000',
        'REFUND:APPROVED:1200',
        'REFUND:APPROVED:3800',
      ]);
    } finally {
      await worker.stop();
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  });

  it('raises a CardError carrying the failed intent on a decline', async () => {
    const intent = await paygate.paymentIntents.create({
      amount_minor: 700,
      currency: 'USD',
      gateway_id: 'sim',
    });
    const error = await paygate.paymentIntents
      .confirm(intent.id, { payment_method_token: 'tok_sim_decline' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof CardError);
    assert.equal(error.code, 'card_declined');
    assert.equal((error.problem.payment_intent as { status: string }).status, 'FAILED');
  });

  it('refuses a publishable key locally, before any request', () => {
    assert.throws(() => new Paygate({ apiKey: merchant.publishableTest }), PaygateConfigurationError);
  });

  it('creates, replays with the generated key, retrieves and cancels an intent', async () => {
    const intent = await paygate.paymentIntents.create({
      amount_minor: 1999,
      currency: 'USD',
      gateway_id: 'sim',
      metadata: { order_id: '42' },
    });
    assert.equal(intent.status, 'CREATED');
    assert.equal(intent.amount_minor, 1999);
    const key = intent.lastResponse.idempotencyKey;
    assert.match(String(key), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(intent.lastResponse.replayed, false);

    const replay = await paygate.paymentIntents.create(
      { amount_minor: 1999, currency: 'USD', gateway_id: 'sim', metadata: { order_id: '42' } },
      { idempotencyKey: String(key) },
    );
    assert.equal(replay.id, intent.id);
    assert.equal(replay.lastResponse.replayed, true);

    const read = await paygate.paymentIntents.retrieve(intent.id);
    assert.equal(read.client_secret, intent.client_secret);

    const canceled = await paygate.paymentIntents.cancel(intent.id);
    assert.equal(canceled.status, 'CANCELED');
    await assert.rejects(paygate.paymentIntents.cancel(intent.id), InvalidStateError);
  });

  it('maps problem codes to error classes with code, status, problem and request id', async () => {
    const error = await paygate.paymentIntents
      .retrieve('pi_000000000000000000000000')
      .catch((e: unknown) => e);
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.code, 'resource_not_found');
    assert.equal(error.status, 404);
    assert.match(String(error.requestId), /^req_/);
    assert.equal(error.problem.request_id, error.requestId);

    await assert.rejects(
      paygate.paymentIntents.create({ amount_minor: 10, currency: 'USD', gateway_id: 'sim' }),
      AmountError,
    );
    await assert.rejects(
      paygate.paymentIntents.create({ amount_minor: 100, currency: 'XYZ', gateway_id: 'sim' }),
      InvalidRequestError,
    );
    const key = 'client-reuse-key';
    await paygate.paymentIntents.create(
      { amount_minor: 100, currency: 'USD', gateway_id: 'sim' },
      { idempotencyKey: key },
    );
    await assert.rejects(
      paygate.paymentIntents.create(
        { amount_minor: 101, currency: 'USD', gateway_id: 'sim' },
        { idempotencyKey: key },
      ),
      IdempotencyError,
    );
    const wrongKey = new Paygate({ apiKey: `sk_test_${'x'.repeat(40)}`, baseUrl });
    await assert.rejects(
      wrongKey.paymentIntents.retrieve('pi_000000000000000000000000'),
      AuthenticationError,
    );
  });
});
