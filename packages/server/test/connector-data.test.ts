// Opaque connector data, on both databases: what a connector asks to keep with a charge or a
// refund is stored beside the gateway's reference and handed back to it on completion (the
// payer's return), reconciliation (sync of a charge and of a refund) and refund. The gateway here
// is an in-memory one that records what it is given back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONNECTOR_DATA_MAX_LENGTH } from '../src/app/gateways/connectors.ts';
import { reconcileOpenCharges } from '../src/app/payments/settle-open-charges.ts';
import { reconcilePendingRefunds } from '../src/app/refunds/reconcile-refunds.ts';
import {
  type ChargeOutcome,
  type ChargeRequest,
  type CompleteActionRequest,
  type GatewayConnector,
  GatewayNotificationError,
  type RefundRequest,
  type SyncChargeRequest,
  type SyncRefundRequest,
} from '../src/gateways/connector.ts';
import { databaseKinds } from './support/databases.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

/** What the gateway was given back, by call. */
interface Received {
  charges: ChargeRequest[];
  syncs: SyncChargeRequest[];
  completions: CompleteActionRequest[];
  refunds: RefundRequest[];
  refundSyncs: SyncRefundRequest[];
}

function keepingGateway(received: Received): GatewayConnector {
  const reference = (key: string) => `ref_${key.replace(/[^0-9A-Za-z]/g, '')}`;
  return {
    id: 'keeper',
    allowsLivemode: false,
    currencies: new Set(['USD']),
    minimumAmountMinor: () => 1,
    async charge(request): Promise<ChargeOutcome> {
      received.charges.push(request);
      const gatewayReference = reference(request.idempotencyKey);
      switch (request.paymentMethodToken) {
        case 'tok_pending':
          return { kind: 'pending', gatewayReference, connectorData: `pending:${request.idempotencyKey}` };
        case 'tok_challenge':
          return {
            kind: 'requires_action',
            gatewayReference,
            redirectUrl: 'http://gateway.test/3ds',
            connectorData: `challenge:${request.idempotencyKey}`,
          };
        case 'tok_huge':
          return {
            kind: 'succeeded',
            gatewayReference,
            connectorData: 'x'.repeat(CONNECTOR_DATA_MAX_LENGTH + 1),
          };
        default:
          return { kind: 'succeeded', gatewayReference, connectorData: `charge:${request.idempotencyKey}` };
      }
    },
    async syncCharge(request) {
      received.syncs.push(request);
      return { kind: 'succeeded', gatewayReference: request.gatewayReference ?? 'ref_unknown' };
    },
    async completeAction(request) {
      received.completions.push(request);
      return { kind: 'succeeded', gatewayReference: request.gatewayReference, connectorData: 'completed' };
    },
    async refund(request) {
      received.refunds.push(request);
      return {
        kind: 'pending',
        gatewayReference: reference(request.idempotencyKey),
        connectorData: `refund:${request.refundId}`,
      };
    },
    async syncRefund(request) {
      received.refundSyncs.push(request);
      return { kind: 'succeeded', gatewayReference: request.gatewayReference ?? 'ref_unknown' };
    },
    parseNotifications() {
      throw new GatewayNotificationError('this gateway sends no notifications');
    },
    hostedFields: () => null,
  };
}

for (const kind of databaseKinds()) {
  describe(`opaque connector data (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    const received: Received = { charges: [], syncs: [], completions: [], refunds: [], refundSyncs: [] };

    before(async () => {
      svc = await startTestService(kind, { extraGateways: [keepingGateway(received)] });
      merchant = await svc.createMerchant('Keeper shop');
    });
    after(() => svc.close());

    async function confirmed(token: string) {
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('pi') },
        body: {
          amount_minor: 2_000,
          currency: 'USD',
          gateway_id: 'keeper',
          return_url: 'http://shop.test/back',
        },
      });
      assert.equal(created.statusCode, 200, created.body);
      const response = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${created.json().id}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: token },
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as { id: string; status: string };
    }

    async function attemptData(paymentIntentId: string): Promise<string | null> {
      const { rows } = await svc.ctx.db.query<{ connector_data: string | null }>(
        'SELECT connector_data FROM charge_attempts WHERE payment_intent_id = $1',
        [paymentIntentId],
      );
      return rows[0]?.connector_data ?? null;
    }

    it('keeps a charge’s data and hands it to the refund; keeps the refund’s and hands it to its sync', async () => {
      const intent = await confirmed('tok_approve');
      assert.equal(intent.status, 'SUCCEEDED');
      const key = `${intent.id}:attempt:1`;
      assert.equal(await attemptData(intent.id), `charge:${key}`);

      const refund = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('re') },
        body: { payment_intent_id: intent.id, amount_minor: 500 },
      });
      assert.equal(refund.statusCode, 200, refund.body);
      const refundId: string = refund.json().id;
      assert.equal(received.refunds.at(-1)?.chargeConnectorData, `charge:${key}`);
      const stored = await svc.ctx.db.query<{ connector_data: string }>(
        'SELECT connector_data FROM refunds WHERE id = $1',
        [refundId],
      );
      assert.equal(stored.rows[0]?.connector_data, `refund:${refundId}`);

      svc.clock.advance(120);
      await reconcilePendingRefunds(svc.ctx, 10);
      assert.equal(received.refundSyncs.at(-1)?.connectorData, `refund:${refundId}`);
      const settled = await svc.request({
        method: 'GET',
        url: `/v1/refunds/${refundId}`,
        key: merchant.secretTest,
      });
      assert.equal(settled.json().status, 'SUCCEEDED');
    });

    it('hands a pending charge’s data to its reconciliation', async () => {
      const intent = await confirmed('tok_pending');
      assert.equal(intent.status, 'PROCESSING');
      svc.clock.advance(3_600);
      await reconcileOpenCharges(svc.ctx, 50);
      const sync = received.syncs.find((s) => s.idempotencyKey === `${intent.id}:attempt:1`);
      assert.equal(sync?.connectorData, `pending:${intent.id}:attempt:1`);
      // The sync answered without data: what was kept stays.
      assert.equal(await attemptData(intent.id), `pending:${intent.id}:attempt:1`);
    });

    it('hands a challenge’s data to the completion step when the payer returns', async () => {
      const intent = await confirmed('tok_challenge');
      assert.equal(intent.status, 'REQUIRES_ACTION');
      const charge = received.charges.find((c) => c.paymentIntentId === intent.id);
      assert.ok(charge?.returnUrl, 'the gateway was given a return address');
      const back = new URL(charge.returnUrl);
      const returned = await svc.request({ method: 'GET', url: `${back.pathname}?token=abc` });
      assert.equal(returned.statusCode, 303, returned.body);
      const completion = received.completions.at(-1);
      assert.equal(completion?.connectorData, `challenge:${intent.id}:attempt:1`);
      assert.deepEqual(completion?.returnParameters, { token: 'abc' });
      assert.equal(await attemptData(intent.id), 'completed');
    });

    it('does not keep data longer than the limit', async () => {
      const intent = await confirmed('tok_huge');
      assert.equal(intent.status, 'SUCCEEDED');
      assert.equal(await attemptData(intent.id), null);
    });
  });
}
