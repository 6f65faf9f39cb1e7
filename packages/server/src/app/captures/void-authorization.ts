import { AppError, GatewayError, NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../../storage/db.ts';
import { findPaymentIntent, type PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import type { AppContext } from '../context.ts';
import { paymentIntentResource } from '../resources/payment-intent.ts';
import {
  applyAuthorizationOutcome,
  sendAuthorizationOperation,
  startAuthorizationOperation,
} from './authorization-operations.ts';

/**
 * The cancel of a REQUIRES_CAPTURE intent: its authorisation released at the gateway (a void), in
 * phases like a capture, and the intent CANCELED (`cancellation_reason: requested`) with its
 * PAYMENT transaction DECLINED once the gateway says so. A void whose answer is unknown leaves the
 * intent reading PROCESSING until the repair job finishes it; a refused one is a 402 carrying the
 * intent, whose authorisation stands. Null: the intent is not REQUIRES_CAPTURE (any more).
 */
export async function voidAuthorization(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
  /** Runs in the transaction that starts the void (the dashboard's audit line). */
  onStart?: (tx: Queryable, intentId: string) => Promise<void>,
): Promise<PaymentIntentRecord | null> {
  const started = await ctx.db.transaction(async (tx) => {
    const intent = await findPaymentIntent(tx, scope, id, { forUpdate: true });
    if (!intent) throw new NotFoundError('payment intent', id);
    if (intent.status !== 'REQUIRES_CAPTURE') return null;
    const operation = await startAuthorizationOperation(
      tx,
      intent,
      'void',
      intent.amountMinor,
      null,
      ctx.clock.now(),
    );
    await onStart?.(tx, intent.id);
    return operation;
  });
  if (!started) return null;
  const outcome = await sendAuthorizationOperation(ctx, started);
  // A refusal to answer is returned from the transaction, not thrown, so what it wrote commits.
  const settled = await ctx.db.transaction(async (tx) => {
    try {
      return await applyAuthorizationOutcome(ctx, tx, started.operation, outcome, 'answer');
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  });
  if (settled instanceof AppError) throw settled;
  if (settled.refused) {
    const view = { kind: 'secret', clientSecretKey: ctx.clientSecretKey } as const;
    throw new GatewayError(settled.refused.code, settled.refused.message, {
      members: { payment_intent: paymentIntentResource(settled.intent, view) },
    });
  }
  return settled.intent;
}
