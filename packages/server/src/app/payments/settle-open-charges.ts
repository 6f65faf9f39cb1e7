import { addSeconds } from '../../clock.ts';
import type { ChargeOutcome, GatewayConnector } from '../../gateways/connector.ts';
import {
  type AttemptStatus,
  type ChargeAttemptRecord,
  claimDueAttempts,
} from '../../storage/repositories/charge-attempts.ts';
import { findPaymentIntentById } from '../../storage/repositories/payment-intents.ts';
import type { BatchResult } from '../batch-result.ts';
import type { AppContext } from '../context.ts';
import {
  chargeRequestFor,
  connectorFor,
  gatewayKeyOf,
  gatewayReturnAddress,
  outcomeOrUnknown,
} from '../gateways/connectors.ts';
import { applyAttemptOutcome, CHARGING_LEASE_SECONDS, type OutcomeSource } from './charge-outcomes.ts';

/**
 * Claims one batch of due attempts in `statuses` (with a lease longer than any gateway call, so
 * no other worker takes them meanwhile), asks the gateway about each outside any transaction and
 * applies the answers one transaction each.
 */
async function settleDueAttempts(
  ctx: AppContext,
  statuses: readonly AttemptStatus[],
  limit: number,
  source: OutcomeSource,
  ask: (connector: GatewayConnector, attempt: ChargeAttemptRecord) => Promise<ChargeOutcome | null>,
): Promise<BatchResult> {
  const now = ctx.clock.now();
  const claimed = await ctx.db.transaction((tx) =>
    claimDueAttempts(tx, statuses, now, addSeconds(now, CHARGING_LEASE_SECONDS), limit),
  );
  const warnings: string[] = [];
  await Promise.all(
    claimed.map(async (attempt) => {
      const connector = await connectorFor(ctx, gatewayKeyOf(attempt), { forNewPayment: false });
      if (!connector) {
        warnings.push(`attempt ${attempt.idempotencyKey}: gateway ${attempt.gatewayId} is not configured`);
        return;
      }
      const outcome = await ask(connector, attempt);
      if (!outcome) return;
      const applied = await applyAttemptOutcome(ctx, attempt, outcome, source);
      if (applied.warning) warnings.push(applied.warning);
    }),
  );
  return { handled: claimed.length, warnings };
}

/**
 * The amount-13 rule's second half: charges every delayed attempt that is due and applies the
 * outcome, which merchants see first as the event it writes.
 */
export function runDueDelayedCharges(ctx: AppContext, limit: number): Promise<BatchResult> {
  return settleDueAttempts(ctx, ['DELAYED'], limit, 'charge', async (connector, attempt) => {
    const intent = await findPaymentIntentById(ctx.db, attempt.paymentIntentId);
    if (!intent) return null;
    const request = chargeRequestFor(intent, attempt, gatewayReturnAddress(ctx, connector, intent, attempt));
    return outcomeOrUnknown(connector, (c) => c.charge(request));
  });
}

/**
 * Reconciliation: syncs with the gateway every attempt whose outcome is still open and due for a
 * check: charges left unanswered (time-out, broken connection, a crash between the two phases of
 * confirm), pending charges, and challenges whose notification may have been lost; and charges
 * given up on (TIMED_OUT) or abandoned by a cancel or an expiry while the payer was on the
 * gateway's page (ABANDONED), while their late-capture watch lasts.
 */
export function reconcileOpenCharges(ctx: AppContext, limit: number): Promise<BatchResult> {
  return settleDueAttempts(
    ctx,
    ['CHARGING', 'PROCESSING', 'REQUIRES_ACTION', 'TIMED_OUT', 'ABANDONED'],
    limit,
    'sync',
    async (connector, attempt) => {
      const request = {
        idempotencyKey: attempt.idempotencyKey,
        gatewayReference: attempt.gatewayReference,
        connectorData: attempt.connectorData,
      };
      return outcomeOrUnknown(connector, (c) => c.syncCharge(request));
    },
  );
}
