import { timingSafeEqual } from 'node:crypto';
import { NotFoundError } from '../../domain/errors.ts';
import type { ChargeOutcome, GatewayConnector } from '../../gateways/connector.ts';
import { type ChargeAttemptRecord, findAttempt } from '../../storage/repositories/charge-attempts.ts';
import {
  findPaymentIntentById,
  type PaymentIntentRecord,
} from '../../storage/repositories/payment-intents.ts';
import type { AppContext } from '../context.ts';
import { applyAttemptOutcome } from '../payments/charge-outcomes.ts';
import { connectorFor, gatewayKeyOf, gatewayReturnMac, outcomeOrUnknown } from './connectors.ts';

// The payer's way back from a gateway's redirect or 3-D Secure page. The gateway is given
// `<public URL>/gateway-returns/<return id>` as its return address: Paygate finishes the charge
// with the connector's completion step (Adyen `/payments/details`, Stripe reading the
// PaymentIntent back), applies the outcome as every other outcome is applied, and sends the payer
// on to the intent's `return_url`. The return id names the attempt and carries a MAC of it, so a
// forged or altered address is refused before anything is read from the gateway.

const RETURN_ID = /^(pi_[0-9A-Za-z]{24})\.([1-9][0-9]{0,5})\.([0-9A-Za-z]{22})$/;

/** The attempt a return id names, or null when it is malformed or its MAC is not ours. */
function attemptNamedBy(
  ctx: AppContext,
  returnId: string,
): { paymentIntentId: string; attemptNumber: number } | null {
  const parts = RETURN_ID.exec(returnId);
  if (!parts) return null;
  const [, paymentIntentId = '', number = '', presented = ''] = parts;
  const attemptNumber = Number(number);
  const expected = Buffer.from(gatewayReturnMac(ctx, paymentIntentId, attemptNumber));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? { paymentIntentId, attemptNumber }
    : null;
}

/**
 * What a completion may change. A refusal of the completion request itself (no gateway reference:
 * for example a `redirectResult` altered on the way back) says nothing about the payment, and an
 * unreadable answer neither: the intent is left as it is, for the gateway's notification or
 * reconciliation to settle.
 */
function isDecisive(outcome: ChargeOutcome): boolean {
  switch (outcome.kind) {
    case 'succeeded':
    case 'authorized':
    case 'pending':
      return true;
    case 'failed':
      return outcome.gatewayReference !== null;
    case 'requires_action':
    case 'indeterminate':
    case 'unavailable':
      return false;
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}

function complete(
  connector: GatewayConnector,
  attempt: ChargeAttemptRecord,
  returnParameters: Record<string, string>,
): Promise<ChargeOutcome> {
  return outcomeOrUnknown(connector, (c) =>
    c.completeAction
      ? c.completeAction({
          idempotencyKey: attempt.idempotencyKey,
          gatewayReference: attempt.gatewayReference ?? attempt.idempotencyKey,
          connectorData: attempt.connectorData,
          returnParameters,
        })
      : c.syncCharge({
          idempotencyKey: attempt.idempotencyKey,
          gatewayReference: attempt.gatewayReference,
          connectorData: attempt.connectorData,
        }),
  );
}

export interface GatewayReturn {
  intent: PaymentIntentRecord;
  /** The intent's `return_url` with `payment_intent=<id>` added; null when it has none. */
  location: string | null;
}

/**
 * Finishes the attempt a payer returns from. Only an attempt still waiting for the payer is
 * completed; a reload (or a return after the notification settled it) reads the intent and sends
 * the payer on again, without calling the gateway. An unknown or altered return id is
 * `404 resource_not_found`, and nothing changes.
 */
export async function completeGatewayReturn(
  ctx: AppContext,
  returnId: string,
  returnParameters: Record<string, string>,
): Promise<GatewayReturn> {
  const named = attemptNamedBy(ctx, returnId);
  const attempt = named ? await findAttempt(ctx.db, named.paymentIntentId, named.attemptNumber) : null;
  if (!attempt) throw new NotFoundError('gateway return', returnId);
  if (attempt.status === 'REQUIRES_ACTION') {
    const connector = await connectorFor(ctx, gatewayKeyOf(attempt), { forNewPayment: false });
    const outcome = connector ? await complete(connector, attempt, returnParameters) : null;
    if (outcome && isDecisive(outcome)) await applyAttemptOutcome(ctx, attempt, outcome, 'sync');
  }
  const intent = await findPaymentIntentById(ctx.db, attempt.paymentIntentId);
  if (!intent) throw new NotFoundError('gateway return', returnId);
  return { intent, location: intent.returnUrl ? onwardUrl(intent.returnUrl, intent.id) : null };
}

function onwardUrl(returnUrl: string, paymentIntentId: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('payment_intent', paymentIntentId);
  return url.toString();
}
