import assert from 'node:assert/strict';
import { freshKey, type MerchantKeys, type TestService } from './service.ts';

/**
 * Creates an intent and cancels it through the API: one `payment_intent.canceled` event, written
 * with its deliveries by the real use case. Returns the event id and its stored payload.
 */
export async function emitCanceledEvent(
  svc: TestService,
  merchant: MerchantKeys,
  options: { livemode?: boolean; metadata?: Record<string, string> } = {},
): Promise<{ id: string; payload: string }> {
  const key = options.livemode ? merchant.secretLive : merchant.secretTest;
  const created = await svc.request({
    method: 'POST',
    url: '/v1/payment-intents',
    key,
    headers: { 'idempotency-key': freshKey() },
    body: {
      amount_minor: 4200,
      currency: 'EUR',
      gateway_id: options.livemode ? 'sim_live' : 'sim',
      ...(options.metadata ? { metadata: options.metadata } : {}),
    },
  });
  assert.equal(created.statusCode, 200, created.body);
  const canceled = await svc.request({
    method: 'POST',
    url: `/v1/payment-intents/${created.json().id}/cancel`,
    key,
  });
  assert.equal(canceled.statusCode, 200, canceled.body);
  const { rows } = await svc.ctx.db.query<{ id: string; payload: string }>(
    "SELECT id, payload FROM events WHERE object_id = $1 AND type = 'payment_intent.canceled'",
    [created.json().id],
  );
  assert.equal(rows.length, 1);
  const event = rows[0];
  assert.ok(event);
  return event;
}
