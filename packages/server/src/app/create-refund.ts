import { createHash } from 'node:crypto';
import type { CreateRefundBody } from '@paygate/contract';
import { GatewayError, NotFoundError } from '../domain/errors.ts';
import { newId } from '../domain/ids.ts';
import { validateMetadata } from '../domain/metadata.ts';
import { refundAmountFor } from '../domain/refund.ts';
import type { TenantScope } from '../domain/tenant.ts';
import type { Queryable } from '../storage/db.ts';
import { listAttempts } from '../storage/repositories/charge-attempts.ts';
import { findPaymentIntent, type PaymentIntentRecord } from '../storage/repositories/payment-intents.ts';
import { insertRefund, type RefundRecord, refundTotalsOfIntent } from '../storage/repositories/refunds.ts';
import { insertTransaction } from '../storage/repositories/transactions.ts';
import type { AppContext } from './context.ts';
import { applyRefundOutcome, REFUND_SYNC_INTERVAL_SECONDS } from './refund-outcome.ts';

/**
 * The idempotency key we send the gateway for a refund. It is derived, not random, so that a
 * retry of the merchant's request after a crash (whose transaction rolled back, refund row and
 * all) sends the same key and the gateway answers with the refund it already made instead of
 * refunding twice. It covers what the gateway compares (the charge, by the intent, and the
 * amount) and the number of refunds the intent already had: a merchant key reused after its
 * 24 hours, for a new refund, therefore never collides with the old one.
 */
export function gatewayRefundKey(
  scope: TenantScope,
  idempotencyKey: string,
  intent: PaymentIntentRecord,
  amountMinor: number,
  priorRefunds: number,
): string {
  const digest = createHash('sha256')
    .update(
      [scope.merchantId, scope.livemode, idempotencyKey, intent.id, amountMinor, priorRefunds].join('\u0000'),
    )
    .digest('hex');
  return `${intent.id}:refund:${digest.slice(0, 32)}`;
}

/** The gateway's reference of the charge that captured the intent's money. */
async function chargeReferenceOf(tx: Queryable, intent: PaymentIntentRecord): Promise<string> {
  const succeeded = (await listAttempts(tx, intent.id)).find((a) => a.status === 'SUCCEEDED');
  if (!succeeded?.gatewayReference) {
    throw new Error(`payment intent ${intent.id} is SUCCEEDED but has no succeeded charge on record`);
  }
  return succeeded.gatewayReference;
}

/**
 * Refunds all or part of a SUCCEEDED intent, inside the idempotency layer's transaction.
 *
 * The intent row is locked first (FOR UPDATE): concurrent refunds of one intent run one after
 * another, so the refundable check (pending refunds count) can never be passed by two that
 * together exceed the captured amount. The refund and its REFUND transaction are written PENDING,
 * the gateway is called while the lock is held, and its answer is applied in the same
 * transaction; a gateway that did not take the request (`unavailable`) rolls everything back and
 * answers 503, which the idempotency layer does not store, so the same key may be retried.
 */
export async function createRefund(
  ctx: AppContext,
  tx: Queryable,
  scope: TenantScope,
  input: CreateRefundBody,
  idempotencyKey: string,
): Promise<RefundRecord> {
  const metadata = validateMetadata(input.metadata);
  const intent = await findPaymentIntent(tx, scope, input.payment_intent_id, { forUpdate: true });
  if (!intent) throw new NotFoundError('payment intent', input.payment_intent_id);
  const totals = await refundTotalsOfIntent(tx, intent.id);
  const amountMinor = refundAmountFor(intent, totals.committedMinor, input.amount_minor);

  const connector = ctx.gateways.get(intent.gatewayId);
  if (!connector) throw new Error(`gateway ${intent.gatewayId} of intent ${intent.id} is not configured`);
  const chargeReference = await chargeReferenceOf(tx, intent);

  const now = ctx.clock.now();
  const refund: RefundRecord = {
    id: newId('re'),
    merchantId: scope.merchantId,
    livemode: scope.livemode,
    paymentIntentId: intent.id,
    amountMinor,
    currency: intent.currency,
    status: 'PENDING',
    metadata,
    gatewayId: intent.gatewayId,
    gatewayIdempotencyKey: gatewayRefundKey(scope, idempotencyKey, intent, amountMinor, totals.count),
    gatewayReference: null,
    failureMessage: null,
    nextSyncAt: new Date(now.getTime() + REFUND_SYNC_INTERVAL_SECONDS * 1000),
    createdAt: now,
    updatedAt: now,
  };
  await insertRefund(tx, refund);
  await insertTransaction(tx, {
    id: newId('txn'),
    merchantId: scope.merchantId,
    livemode: scope.livemode,
    type: 'REFUND',
    status: 'PENDING',
    amountMinor,
    currency: intent.currency,
    paymentIntentId: intent.id,
    refundId: refund.id,
    gatewayId: intent.gatewayId,
    createdAt: now,
    updatedAt: now,
  });

  const outcome = await connector.refund({
    idempotencyKey: refund.gatewayIdempotencyKey,
    refundId: refund.id,
    paymentIntentId: intent.id,
    chargeReference,
    amountMinor,
    currency: intent.currency,
    livemode: scope.livemode,
  });
  if (outcome.kind === 'unavailable') {
    throw new GatewayError(
      'gateway_unavailable',
      `Gateway '${intent.gatewayId}' is unavailable; nothing was refunded. Retry later with the same Idempotency-Key.`,
      { retryAfterSeconds: outcome.retryAfterSeconds },
    );
  }
  return applyRefundOutcome(ctx, tx, refund, outcome);
}
