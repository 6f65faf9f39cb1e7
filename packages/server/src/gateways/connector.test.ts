import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lateCaptureRefundKey } from '../app/late-captures/record-late-capture.ts';
import { gatewayRefundKey } from '../app/refunds/create-refund.ts';
import { newId } from '../domain/ids.ts';
import { attemptIdempotencyKey } from '../storage/repositories/charge-attempts.ts';
import type { PaymentIntentRecord } from '../storage/repositories/payment-intents.ts';
import { assertGatewayIdempotencyKey, GATEWAY_IDEMPOTENCY_KEY_MAX_LENGTH } from './connector.ts';

describe('gateway idempotency keys', () => {
  it('every key Paygate derives fits the strictest gateway (Adyen: 64 characters)', () => {
    assert.equal(GATEWAY_IDEMPOTENCY_KEY_MAX_LENGTH, 64);
    const now = new Date('2026-01-01T00:00:00Z');
    const intent: PaymentIntentRecord = {
      id: newId('pi'),
      merchantId: newId('acct'),
      livemode: true,
      amountMinor: 99_999_999,
      currency: 'EUR',
      status: 'SUCCEEDED',
      version: 1,
      gatewayId: 'adyen',
      redirectUrl: null,
      returnUrl: null,
      metadata: {},
      amountRefundedMinor: 0,
      cancellationReason: null,
      captureMethod: 'automatic',
      amountCapturedMinor: null,
      captureBefore: null,
      customerId: null,
      setupFutureUsage: null,
      lastPaymentError: null,
      chargeInFlight: false,
      authorizationInFlight: false,
      expiresAt: now,
      createdAt: now,
      updatedAt: now,
    };
    // The largest attempt number a PostgreSQL integer holds.
    const chargeKey = attemptIdempotencyKey(intent.id, 2_147_483_647);
    const keys = [
      chargeKey,
      `${chargeKey}:details`,
      lateCaptureRefundKey({ idempotencyKey: chargeKey }),
      gatewayRefundKey(
        { merchantId: intent.merchantId, livemode: true },
        'k'.repeat(255),
        intent,
        1,
        999_999,
      ),
    ];
    for (const key of keys) assert.doesNotThrow(() => assertGatewayIdempotencyKey(key), key);
  });

  it('refuses an empty key and one longer than 64 characters', () => {
    assert.throws(() => assertGatewayIdempotencyKey(''), RangeError);
    assert.throws(() => assertGatewayIdempotencyKey('k'.repeat(65)), RangeError);
    assert.doesNotThrow(() => assertGatewayIdempotencyKey('k'.repeat(64)));
  });
});
