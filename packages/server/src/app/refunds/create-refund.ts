import { createHash } from 'node:crypto';
import type { CreateRefundBody } from '@paygate/contract';
import { GatewayError, IdempotencyError, NotFoundError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { validateMetadata } from '../../domain/metadata.ts';
import { refundAmountFor } from '../../domain/refund.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { RefundOutcome, RefundRequest } from '../../gateways/connector.ts';
import type { Queryable } from '../../storage/db.ts';
import { findPaymentIntent, type PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import {
  deleteUntakenRefund,
  findRefundByRequest,
  insertRefund,
  notePendingRefund,
  type RefundRecord,
  refundTotalsOfIntent,
} from '../../storage/repositories/refunds.ts';
import { insertTransaction } from '../../storage/repositories/transactions.ts';
import type { AppContext } from '../context.ts';
import { connectorFor, gatewayKeyOf } from '../gateways/connectors.ts';
import { type IdempotentAnswer, type IdempotentRequest, runInPhases } from '../idempotent-phases.ts';
import { refundResource } from '../resources/refund.ts';
import { applyRefundOutcomeByGatewayKey, REFUND_SYNC_INTERVAL_SECONDS } from './refund-outcome.ts';
import { capturedChargeOf, refundRequestFor } from './refund-request.ts';

/**
 * `POST /v1/refunds` (and the dashboard's refund): a refund in the three idempotent phases of
 * app/idempotent-phases.ts, start (recovery point), send (outside any transaction), finish. The
 * answer is the refund resource, or the refusal, stored under the request's Idempotency-Key.
 * `onStarted` writes in phase 1's transaction (the dashboard's audit entry).
 */
export function createRefund(
  ctx: AppContext,
  request: IdempotentRequest,
  input: CreateRefundBody,
  onStarted?: (tx: Queryable, refund: RefundRecord) => Promise<void>,
): Promise<IdempotentAnswer> {
  return runInPhases(ctx, request, {
    start: async (tx, key) => {
      const started = await startRefund(ctx, tx, request.scope, input, {
        idempotencyKey: key.key,
        requestHash: key.hash,
      });
      await onStarted?.(tx, started.refund);
      return started;
    },
    callOut: (started) => sendRefund(ctx, started),
    finish: async (tx, started, outcome) => ({
      status: 200,
      body: refundResource(await finishRefund(ctx, tx, started, outcome)),
    }),
  });
}

/** How far back a merchant's Idempotency-Key finds the refund it started (the key's lifetime). */
const REQUEST_KEY_LIFETIME_SECONDS = 24 * 60 * 60;

/**
 * The idempotency key we send the gateway for a refund. It is derived, not random, and it covers
 * what the gateway compares (the charge, by the intent, and the amount) and the number of refunds
 * the intent already had: a merchant key reused after its 24 hours, for a new refund, therefore
 * never collides with the old one. At most 59 characters: gateways limit their keys (Adyen: 64).
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
  return `${intent.id}:refund:${digest.slice(0, 24)}`;
}

/** The merchant's request as the idempotency layer identifies it. */
export interface RefundRequestIdentity {
  idempotencyKey: string;
  /** The hash of method, path and body: a different request under the same key is refused. */
  requestHash: string;
}

/** What phase 1 left for phase 2: the refund to send (null when it is already settled). */
export interface StartedRefund {
  refund: RefundRecord;
  send: RefundRequest | null;
}

/**
 * Phase 1 of a refund, in a transaction of its own that commits before the gateway is called (the
 * recovery point). The intent row is locked first (FOR UPDATE): concurrent refunds of one intent
 * run this phase one after another, so the refundable check (pending refunds count) can never be
 * passed by two that together exceed the captured amount. The refund and its REFUND transaction
 * are written PENDING with their derived gateway key, and with a sync time one lease ahead:
 * reconciliation finishes the refund if this process dies before phase 3.
 *
 * A refund this request's key already started is taken up again instead: while its lease runs the
 * request is still in flight (409); after it, the same gateway key is sent again (the gateway
 * answers with the refund it made, if it made one); a settled one is answered as it is.
 */
export async function startRefund(
  ctx: AppContext,
  tx: Queryable,
  scope: TenantScope,
  input: CreateRefundBody,
  request: RefundRequestIdentity,
): Promise<StartedRefund> {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - REQUEST_KEY_LIFETIME_SECONDS * 1000);
  const earlier = await findRefundByRequest(tx, scope, request.idempotencyKey, since);
  if (earlier) return resumeRefund(tx, earlier, request, now);

  const metadata = validateMetadata(input.metadata);
  const intent = await findPaymentIntent(tx, scope, input.payment_intent_id, { forUpdate: true });
  if (!intent) throw new NotFoundError('payment intent', input.payment_intent_id);
  const totals = await refundTotalsOfIntent(tx, intent.id);
  const amountMinor = refundAmountFor(intent, totals.committedMinor, input.amount_minor);
  if (!(await connectorFor(ctx, gatewayKeyOf(intent), { forNewPayment: false, q: tx }))) {
    throw new Error(`gateway ${intent.gatewayId} of intent ${intent.id} is not configured`);
  }
  const captured = await capturedChargeOf(tx, intent);

  const refund: RefundRecord = {
    id: newId('re'),
    merchantId: scope.merchantId,
    livemode: scope.livemode,
    paymentIntentId: intent.id,
    amountMinor,
    currency: intent.currency,
    status: 'PENDING',
    version: 1,
    metadata,
    gatewayId: intent.gatewayId,
    gatewayIdempotencyKey: gatewayRefundKey(scope, request.idempotencyKey, intent, amountMinor, totals.count),
    gatewayReference: null,
    connectorData: null,
    failureMessage: null,
    nextSyncAt: new Date(now.getTime() + REFUND_SYNC_INTERVAL_SECONDS * 1000),
    requestKey: request.idempotencyKey,
    requestHash: request.requestHash,
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
  return { refund, send: refundRequestFor(refund, captured) };
}

async function resumeRefund(
  tx: Queryable,
  refund: RefundRecord,
  request: RefundRequestIdentity,
  now: Date,
): Promise<StartedRefund> {
  if (refund.requestHash !== request.requestHash) {
    throw new IdempotencyError(
      'idempotency_key_reuse',
      'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
    );
  }
  if (refund.status !== 'PENDING') return { refund, send: null };
  if (refund.nextSyncAt && refund.nextSyncAt.getTime() > now.getTime()) {
    throw new IdempotencyError(
      'idempotency_key_in_flight',
      'A request with this Idempotency-Key is still being processed. Wait, then retry with the same key.',
      { retryAfterSeconds: 1 },
    );
  }
  const intent = await findPaymentIntent(tx, refund, refund.paymentIntentId);
  if (!intent) throw new Error(`refund ${refund.id} lost its payment intent`);
  const nextSyncAt = new Date(now.getTime() + REFUND_SYNC_INTERVAL_SECONDS * 1000);
  await notePendingRefund(tx, refund.id, { gatewayReference: null, nextSyncAt });
  return {
    refund: { ...refund, nextSyncAt },
    send: refundRequestFor(refund, await capturedChargeOf(tx, intent)),
  };
}

/**
 * Phase 2: sends the refund to its gateway, outside any transaction. A connector that throws has
 * given no readable answer: the outcome is unknown (reconciliation reads it back), never failure.
 */
export async function sendRefund(ctx: AppContext, started: StartedRefund): Promise<RefundOutcome | null> {
  if (!started.send) return null;
  const connector = await connectorFor(ctx, gatewayKeyOf(started.refund), { forNewPayment: false });
  if (!connector)
    return { kind: 'indeterminate', detail: `gateway ${started.refund.gatewayId} is not configured` };
  try {
    return await connector.refund(started.send);
  } catch (error) {
    return { kind: 'indeterminate', detail: error instanceof Error ? error.message : 'unknown error' };
  }
}

/**
 * Phase 3, in its own transaction: applies the gateway's answer (intent locked, then refund, as
 * every writer of both). A gateway that did not take the request (`unavailable`) leaves nothing:
 * the refund and its transaction are removed and a 503 is thrown, which the idempotent phases
 * answer (committing the removal) and do not store, so the same key may be retried.
 */
export async function finishRefund(
  ctx: AppContext,
  tx: Queryable,
  started: StartedRefund,
  outcome: RefundOutcome | null,
): Promise<RefundRecord> {
  const { refund } = started;
  if (outcome?.kind === 'unavailable' && (await deleteUntakenRefund(tx, refund.id))) {
    throw new GatewayError(
      'gateway_unavailable',
      `Gateway '${refund.gatewayId}' is unavailable; nothing was refunded. Retry later with the same Idempotency-Key.`,
      { retryAfterSeconds: outcome.retryAfterSeconds },
    );
  }
  const applied = await applyRefundOutcomeByGatewayKey(
    ctx,
    tx,
    refund.gatewayId,
    refund.gatewayIdempotencyKey,
    outcome ?? { kind: 'indeterminate', detail: 'already settled' },
  );
  if (!applied) throw new Error(`refund ${refund.id} vanished between its phases`);
  return applied;
}
