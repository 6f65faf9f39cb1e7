import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PAYPAL_APPROVAL_CHOICES, type PayPalFake, startPayPalFake } from './paypal-fake.ts';

const CLIENT = { id: 'paypal-client', secret: 'paypal-secret' };
const WEBHOOK_ID = '1JE4291016473214C';

type Json = Record<string, unknown>;

/** A member of a PayPal document by its dotted path (`details.0.issue`): the documents nest deeply. */
const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);

describe('PayPal fake', () => {
  let fake: PayPalFake;
  let receiver: Server;
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let token = '';

  before(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    fake = await startPayPalFake({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      webhookId: WEBHOOK_ID,
      notificationUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/paypal`,
      hangMs: 100,
    });
    token = await accessToken();
  });
  after(async () => {
    await fake?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  async function accessToken(secret = CLIENT.secret): Promise<string> {
    const response = await fetch(`${fake.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${CLIENT.id}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const body = (await response.json()) as Json;
    return response.status === 200 ? String(body.access_token) : '';
  }

  async function call(method: string, path: string, body?: unknown, requestId?: string) {
    const response = await fetch(`${fake.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(requestId ? { 'paypal-request-id': requestId } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
  }

  const orderBody = (intent: 'CAPTURE' | 'AUTHORIZE', value: string, currency = 'EUR') => ({
    intent,
    purchase_units: [
      { reference_id: 'pi_1', custom_id: 'pi_1:attempt:1', amount: { currency_code: currency, value } },
    ],
    payment_source: {
      paypal: {
        experience_context: {
          return_url: 'https://shop.example/return',
          cancel_url: 'https://shop.example/cancel',
        },
      },
    },
  });

  /** The payer approves (or not) on the fake's page: the redirect it answers. */
  async function approve(orderId: string, choice: string): Promise<string> {
    const page = await fetch(`${fake.url}/checkoutnow?token=${orderId}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), new RegExp(`id="${choice}"`));
    const decided = await fetch(`${fake.url}/checkoutnow/${orderId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `decision=${choice}`,
      redirect: 'manual',
    });
    assert.equal(decided.status, 303);
    return String(decided.headers.get('location'));
  }

  it('issues OAuth2 tokens for the client credentials only, and refuses calls without a live one', async () => {
    assert.equal(await accessToken('wrong'), '');
    const without = await fetch(`${fake.url}/v2/checkout/orders`, { method: 'POST', body: '{}' });
    assert.equal(without.status, 401);
    assert.equal(((await without.json()) as Json).error, 'invalid_token');
    const before = fake.tokensIssued();
    fake.expireTokens();
    assert.equal((await call('GET', '/v2/checkout/orders/NOSUCH')).status, 401, 'an expired token');
    token = await accessToken();
    assert.equal(fake.tokensIssued(), before + 1);
    assert.equal((await call('GET', '/v2/checkout/orders/NOSUCH')).status, 404);
  });

  it('creates an order, lets the payer approve it on its page, captures it once and notifies both steps', async () => {
    received.length = 0;
    const created = await call('POST', '/v2/checkout/orders', orderBody('CAPTURE', '10.05'), 'req-order-1');
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(at(created.body, 'status'), 'PAYER_ACTION_REQUIRED');
    const action = (at(created.body, 'links') as Json[]).find((l) => l.rel === 'payer-action');
    assert.equal(action?.href, `${fake.url}/checkoutnow?token=${at(created.body, 'id')}`);
    const early = await call('POST', `/v2/checkout/orders/${at(created.body, 'id')}/capture`, {});
    assert.equal(at(early.body, 'details.0.issue'), 'ORDER_NOT_APPROVED');
    const back = await approve(String(at(created.body, 'id')), PAYPAL_APPROVAL_CHOICES.approve);
    assert.equal(back, `https://shop.example/return?token=${at(created.body, 'id')}&PayerID=FAKEPAYER01`);
    const captured = await call(
      'POST',
      `/v2/checkout/orders/${at(created.body, 'id')}/capture`,
      {},
      'req-capture-1',
    );
    assert.equal(captured.status, 201, JSON.stringify(captured.body));
    assert.equal(at(captured.body, 'status'), 'COMPLETED');
    const capture = 'purchase_units.0.payments.captures.0';
    assert.deepEqual(
      ['status', 'amount', 'custom_id'].map((member) => at(captured.body, `${capture}.${member}`)),
      ['COMPLETED', { currency_code: 'EUR', value: '10.05' }, 'pi_1:attempt:1'],
    );
    const again = await call(
      'POST',
      `/v2/checkout/orders/${at(created.body, 'id')}/capture`,
      {},
      'req-capture-2',
    );
    assert.equal(at(again.body, 'details.0.issue'), 'ORDER_ALREADY_CAPTURED');
    const replay = await call(
      'POST',
      `/v2/checkout/orders/${at(created.body, 'id')}/capture`,
      {},
      'req-capture-1',
    );
    assert.deepEqual(replay, captured, 'the same PayPal-Request-Id answers the same capture');
    await fake.idle();
    assert.deepEqual(
      received.map((r) => JSON.parse(r.body).event_type),
      ['CHECKOUT.ORDER.APPROVED', 'PAYMENT.CAPTURE.COMPLETED'],
    );
    assert.deepEqual(fake.violations, []);
  });

  it('answers verify-webhook-signature SUCCESS for what it sent and FAILURE for anything else', async () => {
    const [sent] = received.slice(-1);
    assert.ok(sent);
    const check = (event: unknown, webhookId = WEBHOOK_ID) =>
      call('POST', '/v1/notifications/verify-webhook-signature', {
        auth_algo: sent.headers['paypal-auth-algo'],
        cert_url: sent.headers['paypal-cert-url'],
        transmission_id: sent.headers['paypal-transmission-id'],
        transmission_sig: sent.headers['paypal-transmission-sig'],
        transmission_time: sent.headers['paypal-transmission-time'],
        webhook_id: webhookId,
        webhook_event: event,
      });
    const event = JSON.parse(sent.body) as Json;
    assert.equal((await check(event)).body.verification_status, 'SUCCESS');
    assert.equal(
      (await check({ ...event, event_type: 'PAYMENT.CAPTURE.DENIED' })).body.verification_status,
      'FAILURE',
    );
    assert.equal((await check(event, 'OTHERWEBHOOK')).body.verification_status, 'FAILURE');
  });

  it("refuses a request PayPal's description refuses, naming the field, and records it", async () => {
    const wrong = { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'EUR', value: 10 } }] };
    const refused = await call('POST', '/v2/checkout/orders', wrong);
    assert.equal(refused.status, 400);
    assert.equal(at(refused.body, 'name'), 'INVALID_REQUEST');
    assert.match(String(at(refused.body, 'details.0.description')), /value/);
    assert.equal(fake.violations.length, 1);
    fake.violations.length = 0;
    const reused = await call('POST', '/v2/checkout/orders', orderBody('CAPTURE', '11.00'), 'req-order-1');
    assert.equal(reused.status, 422);
    assert.equal(at(reused.body, 'details.0.issue'), 'DUPLICATE_REQUEST_ID');
  });

  it('declines the capture of an order approved with a declining funding source; cancel goes back unapproved', async () => {
    const declining = await call('POST', '/v2/checkout/orders', orderBody('CAPTURE', '5.00'));
    await approve(String(at(declining.body, 'id')), PAYPAL_APPROVAL_CHOICES.approveDeclining);
    const refused = await call('POST', `/v2/checkout/orders/${at(declining.body, 'id')}/capture`, {});
    assert.equal(refused.status, 422);
    assert.equal(at(refused.body, 'details.0.issue'), 'INSTRUMENT_DECLINED');
    const left = await call('POST', '/v2/checkout/orders', orderBody('CAPTURE', '5.00'));
    const back = await approve(String(at(left.body, 'id')), PAYPAL_APPROVAL_CHOICES.cancel);
    assert.equal(back, `https://shop.example/cancel?token=${at(left.body, 'id')}`);
    assert.equal(fake.order(String(at(left.body, 'id')))?.status, 'PAYER_ACTION_REQUIRED');
  });

  it('authorises, captures part of the authorisation and refunds it in two parts, never more', async () => {
    const created = await call('POST', '/v2/checkout/orders', orderBody('AUTHORIZE', '1500', 'HUF'));
    await approve(String(at(created.body, 'id')), PAYPAL_APPROVAL_CHOICES.approve);
    const authorized = await call('POST', `/v2/checkout/orders/${at(created.body, 'id')}/authorize`, {});
    assert.equal(authorized.status, 201, JSON.stringify(authorized.body));
    const authorization = 'purchase_units.0.payments.authorizations.0';
    assert.equal(at(authorized.body, `${authorization}.status`), 'CREATED');
    const path = `/v2/payments/authorizations/${at(authorized.body, `${authorization}.id`)}`;
    const over = await call('POST', `${path}/capture`, { amount: { currency_code: 'HUF', value: '1600' } });
    assert.equal(at(over.body, 'details.0.issue'), 'MAX_CAPTURE_AMOUNT_EXCEEDED');
    const captured = await call(
      'POST',
      `${path}/capture`,
      { amount: { currency_code: 'HUF', value: '1200' } },
      'cap-a',
    );
    assert.equal(captured.status, 201, JSON.stringify(captured.body));
    assert.equal(at((await call('GET', path)).body, 'status'), 'CAPTURED');
    assert.equal(at((await call('POST', `${path}/void`, {})).body, 'details.0.issue'), 'PREVIOUSLY_VOIDED');
    const refundPath = `/v2/payments/captures/${at(captured.body, 'id')}/refund`;
    const part = await call('POST', refundPath, { amount: { currency_code: 'HUF', value: '200' } }, 're-1');
    assert.equal(part.status, 201, JSON.stringify(part.body));
    assert.equal(
      (await call('GET', `/v2/payments/captures/${at(captured.body, 'id')}`)).body.status,
      'PARTIALLY_REFUNDED',
    );
    const rest = await call('POST', refundPath, {}, 're-2');
    assert.deepEqual(at(rest.body, 'amount'), { currency_code: 'HUF', value: '1000' });
    assert.equal(
      (await call('GET', `/v2/payments/captures/${at(captured.body, 'id')}`)).body.status,
      'REFUNDED',
    );
    const more = await call('POST', refundPath, { amount: { currency_code: 'HUF', value: '1' } }, 're-3');
    assert.equal(at(more.body, 'details.0.issue'), 'REFUND_AMOUNT_EXCEEDED');
    assert.equal((await call('GET', `/v2/payments/refunds/${at(part.body, 'id')}`)).body.status, 'COMPLETED');
    assert.equal(fake.refundCount(), 2);
  });

  it('fails a capture after doing it, and the same PayPal-Request-Id then answers the capture it made', async () => {
    const created = await call('POST', '/v2/checkout/orders', orderBody('AUTHORIZE', '20.00'));
    await approve(String(at(created.body, 'id')), PAYPAL_APPROVAL_CHOICES.approve);
    const authorized = await call('POST', `/v2/checkout/orders/${at(created.body, 'id')}/authorize`, {});
    const path = `/v2/payments/authorizations/${at(authorized.body, 'purchase_units.0.payments.authorizations.0.id')}`;
    fake.failCaptures('error-after-work');
    const failed = await call('POST', `${path}/capture`, {}, 'cap-retry');
    assert.equal(failed.status, 500);
    const retried = await call('POST', `${path}/capture`, {}, 'cap-retry');
    assert.equal(retried.status, 201, JSON.stringify(retried.body));
    assert.equal(at(retried.body, 'status'), 'COMPLETED');
    assert.deepEqual(
      fake.captureRequests.slice(-2).map((r) => r.idempotencyKey),
      ['cap-retry', 'cap-retry'],
    );
    const other = await call('POST', `${path}/capture`, {}, 'cap-other');
    assert.equal(at(other.body, 'details.0.issue'), 'AUTHORIZATION_ALREADY_CAPTURED', 'captured once');
  });
});
