// The gateway calls on a manual intent's authorisation, capture and void, in the phases of every
// money-moving call (docs/decisions/money-safety.md): a PENDING operation with its derived gateway
// key is committed before the call (the recovery point), the call is made outside any transaction,
// and its outcome is committed with the intent's step. An outcome that is unknown (no answer, a
// 5xx, pending) leaves the operation PENDING: the repair job (`repairAuthorizationOperations`)
// sends the very same request again (same key, same body), which the gateway answers once.
import { addSeconds } from '../../clock.ts';
import { AppError, GatewayError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { backoffDelayMs } from '../../domain/retry-schedules.ts';
import type { AuthorizationOutcome, AuthorizationRequest } from '../../gateways/connector.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  type AuthorizationOperationKind,
  type AuthorizationOperationRecord,
  authorisedChargeOf,
  deleteUntakenOperation,
  dueAuthorizationOperations,
  findAuthorizationOperation,
  insertAuthorizationOperation,
  OperationInFlightError,
  postponeAuthorizationOperation,
  recordRefusedCapture,
  settleAuthorizationOperation,
} from '../../storage/repositories/authorization-operations.ts';
import {
  findPaymentIntentById,
  type PaymentIntentRecord,
} from '../../storage/repositories/payment-intents.ts';
import type { AppContext } from '../context.ts';
import { connectorFor, gatewayKeyOf } from '../gateways/connectors.ts';
import {
  applyStateChange,
  type IntentStep,
  intentStep,
  type StateChange,
} from '../payments/intent-status.ts';

/** How long a caller may take to finish its operation before the repair job takes it up. */
export const OPERATION_LEASE_SECONDS = 120;
/** The repair job's pauses between tries of one operation: 30 s doubling, at most an hour. */
const REPAIR_BACKOFF = { firstMs: 30_000, maxMs: 3_600_000 };

/** What phase 1 left for phase 2: the operation and the request that is sent for it. */
export interface StartedOperation {
  operation: AuthorizationOperationRecord;
  send: AuthorizationRequest & { amountMinor?: number };
  /** The intent as phase 1 locked it, when phase 1 wrote in one statement (its finish may too). */
  intent?: PaymentIntentRecord;
}

/**
 * Phase 1, in the caller's transaction with the intent locked (FOR UPDATE) and checked: the
 * operation PENDING, with a gateway key derived from the authorised charge's own key and the
 * operation's number, so every try of it sends the same key. A second operation while one is in
 * flight is a 409 (the one-pending index decides, not a read).
 */
export async function startAuthorizationOperation(
  tx: Queryable,
  intent: PaymentIntentRecord,
  kind: AuthorizationOperationKind,
  amountMinor: number,
  request: { key: string; hash: string } | null,
  now: Date,
): Promise<StartedOperation> {
  const authorised = await authorisedChargeOf(tx, intent.id);
  if (!authorised?.gatewayReference) {
    throw new Error(`payment intent ${intent.id} is REQUIRES_CAPTURE but has no authorised charge on record`);
  }
  const number = authorised.operations + 1;
  const operation: AuthorizationOperationRecord = {
    id: newId('auo'),
    merchantId: intent.merchantId,
    livemode: intent.livemode,
    paymentIntentId: intent.id,
    kind,
    amountMinor,
    currency: intent.currency,
    gatewayId: intent.gatewayId,
    gatewayIdempotencyKey: `${authorised.idempotencyKey}:${kind}:${number}`,
    status: 'PENDING',
    gatewayReference: null,
    failureMessage: null,
    requestKey: request?.key ?? null,
    requestHash: request?.hash ?? null,
    nextSyncAt: addSeconds(now, OPERATION_LEASE_SECONDS),
    tries: 0,
    createdAt: now,
    updatedAt: now,
  };
  await insertAuthorizationOperation(tx, operation).catch((error: unknown) => {
    throw error instanceof OperationInFlightError ? operationInFlight() : error;
  });
  return { operation, send: requestFor(operation, authorised.gatewayReference, authorised.connectorData) };
}

function operationInFlight(): AppError {
  return new AppError(
    'invalid_state_transition',
    'A capture or void of this payment intent is in progress at the gateway; retrieve the intent to see its outcome.',
  );
}

/** The gateway request of an operation: every field stable, so each try sends the same one. */
export function requestFor(
  operation: AuthorizationOperationRecord,
  chargeReference: string,
  chargeConnectorData: string | null,
): StartedOperation['send'] {
  return {
    idempotencyKey: operation.gatewayIdempotencyKey,
    paymentIntentId: operation.paymentIntentId,
    chargeReference,
    chargeConnectorData,
    currency: operation.currency,
    livemode: operation.livemode,
    ...(operation.kind === 'capture' ? { amountMinor: operation.amountMinor } : {}),
  };
}

/** An operation already recorded, taken up again (a retry after its lease, the repair job): the same request. */
export async function resumedOperation(
  q: Queryable,
  operation: AuthorizationOperationRecord,
): Promise<StartedOperation | null> {
  const charge = await authorisedChargeOf(q, operation.paymentIntentId);
  if (!charge?.gatewayReference) return null;
  return { operation, send: requestFor(operation, charge.gatewayReference, charge.connectorData) };
}

/** Phase 2, outside any transaction: a connector that throws gave no readable answer. */
export async function sendAuthorizationOperation(
  ctx: AppContext,
  started: StartedOperation,
): Promise<AuthorizationOutcome> {
  // The account as read in the last 2 s, as the confirm reads it: an operator's change to it is
  // seen by the next try (the repair job sends again what this one could not).
  const connector = await connectorFor(ctx, gatewayKeyOf(started.operation), {
    forNewPayment: false,
    recent: true,
  });
  const { amountMinor, ...send } = started.send;
  try {
    if (started.operation.kind === 'capture' && connector?.capture) {
      return await connector.capture({ ...send, amountMinor: amountMinor ?? started.operation.amountMinor });
    }
    if (started.operation.kind === 'void' && connector?.voidAuthorization) {
      return await connector.voidAuthorization(send);
    }
  } catch (error) {
    return { kind: 'indeterminate', detail: error instanceof Error ? error.message : 'unknown error' };
  }
  return { kind: 'indeterminate', detail: `gateway ${started.operation.gatewayId} cannot take it now` };
}

/** What phase 3 made of an outcome, for the caller's answer. */
export interface SettledOperation {
  intent: PaymentIntentRecord;
  /** The gateway refused: the authorisation stands; the capture answers 402 with it. */
  refused: { code: 'card_declined' | 'gateway_rejected'; message: string } | null;
}

/**
 * Phase 3 (and the repair job's), in a transaction: the outcome applied with the intent locked
 * first, then the operation. Done: a capture makes the intent SUCCEEDED with what the gateway says
 * it captured (the PAYMENT transaction APPROVED for it), a void CANCELED (`requested`, DECLINED).
 * Refused: the operation FAILED, the intent stays REQUIRES_CAPTURE with the refusal as its
 * `last_payment_error`. Not taken (`unavailable`) by the first send: the operation is removed, and
 * the 503 says nothing happened. Unknown: the operation stays PENDING for the repair job.
 */
export async function applyAuthorizationOutcome(
  ctx: AppContext,
  tx: Queryable,
  of: Pick<AuthorizationOperationRecord, 'id' | 'paymentIntentId'>,
  outcome: AuthorizationOutcome,
  source: 'answer' | 'repair',
): Promise<SettledOperation> {
  const now = ctx.clock.now();
  // The intent first, then the operation: the order every path that changes both locks them in.
  const intent = await findPaymentIntentById(tx, of.paymentIntentId, { forUpdate: true });
  const operation = await findAuthorizationOperation(tx, of.id, { forUpdate: true });
  if (!intent || !operation) throw new Error(`authorization operation ${of.id} lost its intent`);
  if (operation.status !== 'PENDING') return { intent, refused: null };
  switch (outcome.kind) {
    case 'succeeded':
      return { intent: await operationDone(tx, intent, operation, outcome, now), refused: null };
    case 'failed': {
      const refusal = {
        code: 'gateway_rejected' as const,
        declineCode: outcome.declineCode ?? null,
        gatewayCode: outcome.gatewayCode ?? null,
        message: `The gateway refused the ${operation.kind}: ${outcome.message}`,
      };
      await settleAuthorizationOperation(
        tx,
        operation.id,
        { status: 'FAILED', gatewayReference: null, failureMessage: outcome.message },
        now,
      );
      if (operation.kind === 'capture') await recordRefusedCapture(tx, intent.id, refusal, now);
      const after = (await findPaymentIntentById(tx, intent.id)) ?? intent;
      return { intent: after, refused: { code: refusal.code, message: refusal.message } };
    }
    case 'unavailable':
      if (source === 'answer' && (await deleteUntakenOperation(tx, operation.id))) {
        throw new GatewayError(
          'gateway_unavailable',
          `Gateway '${operation.gatewayId}' did not take the ${operation.kind}; nothing changed. Retry later with the same Idempotency-Key.`,
          { retryAfterSeconds: outcome.retryAfterSeconds },
        );
      }
      break;
    case 'pending':
    case 'indeterminate':
      break;
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
  const pauseMs = backoffDelayMs(REPAIR_BACKOFF, operation.tries);
  await postponeAuthorizationOperation(tx, operation.id, new Date(now.getTime() + pauseMs), now);
  const after = (await findPaymentIntentById(tx, intent.id)) ?? intent;
  return { intent: after, refused: null };
}

/** The gateway did it: the intent's step, its PAYMENT transaction and the operation, together. */
async function operationDone(
  tx: Queryable,
  intent: PaymentIntentRecord,
  operation: AuthorizationOperationRecord,
  outcome: Extract<AuthorizationOutcome, { kind: 'succeeded' }>,
  now: Date,
): Promise<PaymentIntentRecord> {
  await settleAuthorizationOperation(
    tx,
    operation.id,
    { status: 'SUCCEEDED', gatewayReference: outcome.gatewayReference, failureMessage: null },
    now,
  );
  const settled = { ...intent, authorizationInFlight: false };
  if (operation.kind === 'void') {
    // The step and the PAYMENT transaction DECLINED in one statement.
    const step = intentStep(settled, { type: 'cancel' }, now, { cancellationReason: 'requested' });
    await applyStateChange(tx, { intent: step, paymentTransaction: 'DECLINED' });
    return step.to;
  }
  const { step, change } = capturedStep(settled, operation, outcome, now);
  await applyStateChange(tx, change);
  return step.to;
}

/**
 * A capture the gateway made, as the intent's step (SUCCEEDED, its captured amount) and the
 * PAYMENT transaction APPROVED for what was captured: one decision, whichever path writes it.
 */
export function capturedStep(
  intent: PaymentIntentRecord,
  operation: Pick<AuthorizationOperationRecord, 'amountMinor'>,
  outcome: Extract<AuthorizationOutcome, { kind: 'succeeded' }>,
  now: Date,
): { step: IntentStep; change: StateChange } {
  // What the gateway says it captured is what the books hold; a gateway that does not say
  // captured what was asked. More than authorised never reads as more than the intent.
  const captured = Math.min(outcome.captured?.amountMinor ?? operation.amountMinor, intent.amountMinor);
  const step = intentStep(intent, { type: 'capture' }, now, { amountCapturedMinor: captured });
  return {
    step,
    change: { intent: step, paymentTransaction: 'APPROVED', paymentTransactionAmount: captured },
  };
}

/**
 * The repair job: each PENDING operation whose lease or back-off ran out is sent again, the same
 * request with the same key, and its outcome applied. Returns how many it took up.
 */
export async function repairAuthorizationOperations(ctx: AppContext, limit = 50): Promise<number> {
  const due = await dueAuthorizationOperations(ctx.db, ctx.clock.now(), limit);
  for (const operation of due) {
    const started = await resumedOperation(ctx.db, operation);
    if (!started) continue;
    const outcome = await sendAuthorizationOperation(ctx, started);
    await ctx.db.transaction((tx) => applyAuthorizationOutcome(ctx, tx, operation, outcome, 'repair'));
  }
  return due.length;
}
