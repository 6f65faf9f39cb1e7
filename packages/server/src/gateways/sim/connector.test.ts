import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type GatewaySim, startGatewaySim } from '@paygate/gateway-sim';
import { ManualClock, systemClock } from '../../clock.ts';
import { type ChargeOutcome, GatewayNotificationError } from '../connector.ts';
import { createSimConnector, type SimConnector } from './connector.ts';

const API_SECRET = 'connector_test_api_secret';
const NOTIFICATION_SECRET = 'connector_test_notification_secret';

interface Received {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
}

/** A real local HTTP server answering every request with `handler`'s status, headers and body. */
async function startServer(
  handler: (
    path: string,
    rawBody: Buffer,
  ) => { status: number; headers?: Record<string, string>; body?: string },
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = handler(request.url ?? '/', Buffer.concat(chunks));
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let counter = 0;
function chargeRequest(paymentMethodToken: string, extra: { amountMinor?: number; returnUrl?: string } = {}) {
  counter += 1;
  const paymentIntentId = `pi_connector${String(counter).padStart(13, '0')}`;
  return {
    idempotencyKey: `${paymentIntentId}:attempt:1`,
    paymentIntentId,
    amountMinor: extra.amountMinor ?? 5000,
    currency: 'EUR',
    paymentMethodToken,
    livemode: false,
    returnUrl: extra.returnUrl ?? null,
  };
}

function referenceOf(outcome: ChargeOutcome): string {
  assert.ok('gatewayReference' in outcome && outcome.gatewayReference, `no reference in ${outcome.kind}`);
  return outcome.gatewayReference;
}

describe('sim connector', () => {
  let sim: GatewaySim;
  let connector: SimConnector;
  const received: Received[] = [];
  let receiver: Server;

  before(async () => {
    const started = await startServer(() => ({ status: 204 }));
    receiver = started.server;
    receiver.prependListener('request', (request) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => received.push({ rawBody: Buffer.concat(chunks), headers: request.headers }));
    });
    sim = await startGatewaySim({
      port: 0,
      apiSecret: API_SECRET,
      notificationUrl: `${started.url}/gateway-notifications/sim`,
      notificationSecret: NOTIFICATION_SECRET,
      hangMs: 60_000,
    });
    connector = createSimConnector({
      baseUrl: sim.url,
      apiSecret: API_SECRET,
      notificationSecret: NOTIFICATION_SECRET,
    });
  });
  after(async () => {
    await sim.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  async function approveChallenge(redirectUrl: string): Promise<Received> {
    const before = received.length;
    const response = await fetch(redirectUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=approve',
      redirect: 'manual',
    });
    await response.body?.cancel();
    await sim.idle();
    assert.equal(received.length, before + 1);
    return received.at(-1)!;
  }

  it('declares gateway sim: test mode only, its currencies and minimums, its hosted fields', () => {
    assert.equal(connector.id, 'sim');
    assert.equal(connector.allowsLivemode, false);
    assert.deepEqual([...connector.currencies].sort(), [
      'BRL',
      'CLP',
      'EUR',
      'GBP',
      'JPY',
      'KWD',
      'MXN',
      'USD',
    ]);
    assert.equal(connector.minimumAmountMinor('USD'), 50);
    assert.equal(connector.minimumAmountMinor('BRL'), 50);
    assert.equal(connector.minimumAmountMinor('JPY'), 1);
    assert.equal(connector.minimumAmountMinor('CLP'), 1);
    assert.equal(connector.minimumAmountMinor('KWD'), 500);
    assert.throws(() => connector.minimumAmountMinor('CHF'), RangeError);
    assert.deepEqual(connector.hostedFields(), {
      url: `${sim.url}/hosted-fields`,
      origin: sim.origin,
      component: 'sim',
    });
  });

  it('maps every test token to its outcome', async () => {
    assert.equal((await connector.charge(chargeRequest('tok_sim_approve'))).kind, 'succeeded');
    const declined = await connector.charge(chargeRequest('tok_sim_decline'));
    assert.equal(declined.kind, 'failed');
    assert.equal(declined.kind === 'failed' && declined.failureCode, 'card_declined');
    assert.match(referenceOf(declined), /^ch_/);
    for (const token of ['tok_sim_reject', 'tok_unknown']) {
      const rejected = await connector.charge(chargeRequest(token));
      assert.equal(rejected.kind === 'failed' && rejected.failureCode, 'gateway_rejected', token);
    }
    const challenged = await connector.charge(chargeRequest('tok_sim_challenge'));
    assert.equal(challenged.kind, 'requires_action');
    assert.equal(
      challenged.kind === 'requires_action' && challenged.redirectUrl,
      `${sim.url}/challenge/${referenceOf(challenged)}`,
    );
    const unavailable = await connector.charge(chargeRequest('tok_sim_unavailable'));
    assert.deepEqual(unavailable.kind === 'unavailable' && unavailable.retryAfterSeconds, 2);
  });

  it('charges once for a repeated idempotency key', async () => {
    const request = chargeRequest('tok_sim_approve');
    const first = await connector.charge(request);
    const second = await connector.charge(request);
    assert.equal(referenceOf(second), referenceOf(first));
  });

  it('refuses live-mode charges without calling the gateway', async () => {
    await assert.rejects(connector.charge({ ...chargeRequest('tok_sim_approve'), livemode: true }));
  });

  it('reads a hung charge as indeterminate, and a later sync as succeeded', async () => {
    const impatient = createSimConnector({
      baseUrl: sim.url,
      apiSecret: API_SECRET,
      notificationSecret: NOTIFICATION_SECRET,
      requestTimeoutMs: 300,
    });
    const request = chargeRequest('tok_sim_hang');
    const outcome = await impatient.charge(request);
    assert.equal(outcome.kind, 'indeterminate');
    const synced = await impatient.syncCharge({
      idempotencyKey: request.idempotencyKey,
      gatewayReference: null,
    });
    assert.equal(synced.kind, 'succeeded');
    const byReference = await impatient.syncCharge({
      idempotencyKey: request.idempotencyKey,
      gatewayReference: referenceOf(synced),
    });
    assert.deepEqual(byReference, synced);
  });

  it('syncs a charge the gateway never took as failed, with no reference', async () => {
    const synced = await connector.syncCharge({
      idempotencyKey: 'pi_never:attempt:1',
      gatewayReference: null,
    });
    assert.equal(synced.kind, 'failed');
    assert.equal(synced.kind === 'failed' && synced.gatewayReference, null);
  });

  it('treats a refusal of its credentials as unavailable: nothing was charged', async () => {
    const misconfigured = createSimConnector({
      baseUrl: sim.url,
      apiSecret: 'wrong',
      notificationSecret: 'x',
    });
    const request = chargeRequest('tok_sim_approve');
    assert.equal((await misconfigured.charge(request)).kind, 'unavailable');
    const synced = await connector.syncCharge({
      idempotencyKey: request.idempotencyKey,
      gatewayReference: null,
    });
    assert.equal(synced.kind, 'failed');
  });

  it('refunds: succeeds by default, fails on amounts ending in 99, settles amounts ending in 13 late', async () => {
    const charged = await connector.charge(chargeRequest('tok_sim_approve', { amountMinor: 10_000 }));
    const chargeReference = referenceOf(charged);
    const refund = (refundId: string, amountMinor: number) => ({
      idempotencyKey: `${refundId}:attempt:1`,
      refundId,
      paymentIntentId: 'pi_x',
      chargeReference,
      amountMinor,
      currency: 'EUR',
      livemode: false,
    });
    assert.equal((await connector.refund(refund('re_ok', 1000))).kind, 'succeeded');
    const failed = await connector.refund(refund('re_fail', 199));
    assert.equal(failed.kind, 'failed');
    assert.match(failed.kind === 'failed' ? (failed.gatewayReference ?? '') : '', /^rf_/);

    const late = await connector.refund(refund('re_late', 2013));
    assert.equal(late.kind, 'pending');
    const pendingSync = await connector.syncRefund({
      idempotencyKey: 're_late:attempt:1',
      gatewayReference: null,
    });
    assert.equal(pendingSync.kind, 'pending');
    const before = received.length;
    sim.settlePendingRefund(late.kind === 'pending' ? late.gatewayReference : '');
    await sim.idle();
    assert.equal(received.length, before + 1);
    const note = connector.parseNotification(received.at(-1)!.rawBody, received.at(-1)!.headers);
    assert.equal(note.subject, 'refund');
    assert.equal(note.idempotencyKey, 're_late:attempt:1');
    assert.equal(note.outcome.kind, 'succeeded');
    const settledSync = await connector.syncRefund({
      idempotencyKey: 're_late:attempt:1',
      gatewayReference: late.kind === 'pending' ? late.gatewayReference : null,
    });
    assert.equal(settledSync.kind, 'succeeded');

    const tooMuch = await connector.refund(refund('re_over', 7000));
    assert.equal(tooMuch.kind, 'failed');
    assert.equal(tooMuch.kind === 'failed' && tooMuch.gatewayReference, null);
    const missing = await connector.syncRefund({
      idempotencyKey: 're_none:attempt:1',
      gatewayReference: null,
    });
    assert.equal(missing.kind, 'unavailable', 'no refund with the key: the same request may be sent again');
  });

  it('parses a signed challenge notification into the charge outcome', async () => {
    const request = chargeRequest('tok_sim_challenge', { returnUrl: 'http://shop.test/done' });
    const challenged = await connector.charge(request);
    assert.equal(challenged.kind, 'requires_action');
    const note = await approveChallenge(challenged.kind === 'requires_action' ? challenged.redirectUrl : '');
    const parsed = connector.parseNotification(note.rawBody, note.headers);
    assert.equal(parsed.subject, 'charge');
    assert.match(parsed.notificationId, /^ntf_/);
    assert.equal(parsed.idempotencyKey, request.idempotencyKey);
    assert.deepEqual(parsed.outcome, { kind: 'succeeded', gatewayReference: referenceOf(challenged) });
  });

  it('refuses tampered, stale, future, unsigned and wrongly keyed notifications', async () => {
    const challenged = await connector.charge(chargeRequest('tok_sim_challenge'));
    const note = await approveChallenge(challenged.kind === 'requires_action' ? challenged.redirectUrl : '');
    const tampered = Buffer.from(note.rawBody.toString('utf8').replace('"succeeded"', '"failed"'));
    assert.notDeepEqual(tampered, note.rawBody);
    assert.throws(() => connector.parseNotification(tampered, note.headers), GatewayNotificationError);

    const nowMs = systemClock.now().getTime();
    const withClock = (atMs: number) =>
      createSimConnector({
        baseUrl: sim.url,
        apiSecret: API_SECRET,
        notificationSecret: NOTIFICATION_SECRET,
        clock: new ManualClock(new Date(atMs)),
      });
    assert.equal(withClock(nowMs + 290_000).parseNotification(note.rawBody, note.headers).subject, 'charge');
    assert.throws(
      () => withClock(nowMs + 302_000).parseNotification(note.rawBody, note.headers),
      GatewayNotificationError,
    );
    assert.throws(
      () => withClock(nowMs - 302_000).parseNotification(note.rawBody, note.headers),
      GatewayNotificationError,
    );

    const { 'sim-signature': _signature, ...unsigned } = note.headers;
    assert.throws(() => connector.parseNotification(note.rawBody, unsigned), GatewayNotificationError);
    assert.throws(
      () => connector.parseNotification(note.rawBody, { 'sim-signature': 't=1,v1=abc' }),
      GatewayNotificationError,
    );
    const otherSecret = createSimConnector({
      baseUrl: sim.url,
      apiSecret: API_SECRET,
      notificationSecret: 'other',
    });
    assert.throws(() => otherSecret.parseNotification(note.rawBody, note.headers), GatewayNotificationError);
  });
});

describe('sim connector against a misbehaving gateway', () => {
  const connectorFor = (url: string) =>
    createSimConnector({ baseUrl: url, apiSecret: 's', notificationSecret: 'n', requestTimeoutMs: 2000 });

  it('reads a broken connection, an unreadable reply and a 500 as indeterminate', async () => {
    const { server, url } = await startServer((path) => {
      if (path.includes('garbage')) return { status: 200, body: '<html>oops</html>' };
      return { status: 500, body: '{"error":{"code":"boom","message":"boom"}}' };
    });
    try {
      assert.equal((await connectorFor(url).charge(chargeRequest('tok_sim_approve'))).kind, 'indeterminate');
      const garbage = await connectorFor(`${url}/garbage`).charge(chargeRequest('tok_sim_approve'));
      assert.equal(garbage.kind, 'indeterminate');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // The server is gone now: the connection is refused.
    const refused = await connectorFor(url).charge(chargeRequest('tok_sim_approve'));
    assert.equal(refused.kind, 'indeterminate');
  });

  it('reads a well-formed charge of another idempotency key as indeterminate', async () => {
    const { server, url } = await startServer(() => ({
      status: 200,
      body: JSON.stringify({ object: 'charge', id: 'ch_1', idempotency_key: 'other', status: 'succeeded' }),
    }));
    try {
      assert.equal((await connectorFor(url).charge(chargeRequest('tok_sim_approve'))).kind, 'indeterminate');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('takes Retry-After from a 503, defaulting to 5 and capping at 60', async () => {
    const retryAfters = ['9', undefined, '3600', 'soon'];
    const { server, url } = await startServer(() => {
      const value = retryAfters.shift();
      const headers: Record<string, string> = value === undefined ? {} : { 'retry-after': value };
      return { status: 503, headers, body: '{}' };
    });
    try {
      const seen: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const outcome = await connectorFor(url).charge(chargeRequest('tok_sim_approve'));
        assert.equal(outcome.kind, 'unavailable');
        if (outcome.kind === 'unavailable') seen.push(outcome.retryAfterSeconds);
      }
      assert.deepEqual(seen, [9, 5, 60, 5]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reads a detach as done only when the gateway says so (or has no such method); anything else is asked again', async () => {
    const answers: { status: number; body: string }[] = [
      { status: 200, body: '{"id":"pm_sim_1","object":"payment_method","status":"detached"}' },
      {
        status: 404,
        body: '{"error":{"code":"payment_method_not_found","message":"No such payment method."}}',
      },
      { status: 404, body: '{"error":{"code":"route_not_found","message":"no"}}' },
      { status: 200, body: '{"id":"pm_sim_other","object":"payment_method","status":"detached"}' },
      { status: 503, body: '{}' },
      { status: 500, body: '{"error":{"code":"boom","message":"boom"}}' },
      { status: 400, body: '{"error":{"code":"invalid_request","message":"no"}}' },
    ];
    const { server, url } = await startServer(() => answers.shift() ?? { status: 500, body: '' });
    const kinds: string[] = [];
    try {
      for (let i = 0; i < 7; i += 1) {
        kinds.push(
          (await connectorFor(url).detachPaymentMethod({ reference: 'pm_sim_1', livemode: false })).kind,
        );
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    assert.deepEqual(kinds, [
      'detached',
      'detached',
      'indeterminate',
      'indeterminate',
      'unavailable',
      'indeterminate',
      'indeterminate',
    ]);
    const refused = await connectorFor(url).detachPaymentMethod({ reference: 'pm_sim_1', livemode: false });
    assert.equal(refused.kind, 'indeterminate', 'a refused connection detached nothing we know of');
  });
});
