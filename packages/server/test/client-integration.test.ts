import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AmountError,
  AuthenticationError,
  IdempotencyError,
  InvalidRequestError,
  InvalidStateError,
  NotFoundError,
  Paygate,
  PaygateConfigurationError,
} from '@paygate/node';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

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
