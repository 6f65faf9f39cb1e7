import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@paygate/testing';
import { type LocalPaygate, startLocalPaygate } from '../src/local-paygate.ts';
import { provisionShop, type ShopCredentials } from '../src/provision.ts';
import { type Shop, startShop } from '../src/server.ts';
import { freePort } from './support.ts';

/**
 * The test clock moves business time only. The demo shop's receiver checks the signature's `t`
 * against its own (real) clock with the client's 300 s tolerance, so deliveries must keep coming
 * with real time in `t` after the operator advances the test clock by hours.
 */
describe('webhooks after a test-clock advance', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'paygate-test-clock-'));
  let paygate: LocalPaygate;
  let credentials: ShopCredentials;
  let shop: Shop;

  before(async () => {
    paygate = await startLocalPaygate({
      port: await freePort(),
      simPort: await freePort(),
      dataDir,
      logLevel: 'silent',
    });
    const shopPort = await freePort();
    const shopUrl = `http://127.0.0.1:${shopPort}`;
    credentials = await provisionShop({
      paygateUrl: paygate.url,
      adminToken: paygate.adminToken,
      shopOrigins: [shopUrl],
      webhookUrl: `${shopUrl}/webhooks/paygate`,
    });
    shop = await startShop({ paygateUrl: paygate.url, ...credentials, port: shopPort });
  });
  after(async () => {
    await shop?.close();
    await paygate?.service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the demo shop verifies and accepts payment_intent.succeeded after a 2-hour advance', async () => {
    const advanced = await fetch(`${paygate.url}/admin/v1/test-clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': paygate.adminToken },
      body: JSON.stringify({ seconds: 7200 }),
    });
    assert.equal(advanced.status, 200);

    const created = await fetch(`${shop.url}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'amount_minor=2500&currency=USD',
      redirect: 'manual',
    });
    assert.equal(created.status, 303);
    const orderId = /\/orders\/(order_\d+)\/pay/.exec(created.headers.get('location') ?? '')?.[1];
    const order = shop.orders.get(orderId ?? '');
    assert.ok(order?.paymentIntentId);

    const confirmed = await fetch(`${paygate.url}/v1/payment-intents/${order.paymentIntentId}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': credentials.secretKey },
      body: JSON.stringify({ payment_method_token: 'tok_sim_approve' }),
    });
    const intent = (await confirmed.json()) as { status: string; created_at: string };
    assert.equal(intent.status, 'SUCCEEDED');
    // Business time did move: the intent was created two hours ahead of real time.
    assert.ok(new Date(intent.created_at).getTime() - Date.now() > 7000 * 1000, intent.created_at);

    // Only a delivery whose signature the shop accepted marks the order (a rejected one gets 400).
    await waitFor('the shop to accept the signed webhook', () => order.paymentStatus === 'SUCCEEDED');
    assert.ok(order.events.includes('payment_intent.succeeded'), order.events.join());
  });
});
