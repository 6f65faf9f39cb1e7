import type { PaymentIntent } from '@paygate/contract';
import { addSeconds } from '../../clock.ts';
import {
  AppError,
  GatewayError,
  InvalidStateTransitionError,
  NotFoundError,
  ValidationError,
} from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import {
  canTransition,
  type IntentAction,
  statusesAllowing,
  transition,
} from '../../domain/payment-intent.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { ChargeOutcome, GatewayConnector } from '../../gateways/connector.ts';
import { type Queryable, together } from '../../storage/db.ts';
import {
  type ChargeAttemptRecord,
  findOpenAttempt,
  insertChargeAttempt,
  OpenAttemptExistsError,
  startConfirm,
} from '../../storage/repositories/charge-attempts.ts';
import { findPaymentIntent, type PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import {
  findSavedPaymentMethod,
  lockActiveSavedPaymentMethod,
} from '../../storage/repositories/saved-payment-methods.ts';
import { insertTransaction } from '../../storage/repositories/transactions.ts';
import type { AppContext } from '../context.ts';
import {
  chargeRequestFor,
  connectorFor,
  connectorOfAccount,
  type GatewayKey,
  gatewayKeyOf,
  gatewayReturnAddress,
  gatewaysTaking,
  noGatewayError,
  outcomeOrUnknown,
} from '../gateways/connectors.ts';
import { type AppliedOutcome, applyAttemptOutcome, CHARGING_LEASE_SECONDS } from './charge-outcomes.ts';
import { applyIntentAction } from './intent-status.ts';
import { type IntentCaller, intentViewOf } from './retrieve-payment-intent.ts';

/** The test-mode rule: an amount ending in 13 is charged, and settles, this long after confirm. */
export const DELAYED_OUTCOME_SECONDS = 60;
const DELAYED_AMOUNT_ENDING = 13;

export function hasDelayedOutcome(intent: Pick<PaymentIntentRecord, 'livemode' | 'amountMinor'>): boolean {
  return !intent.livemode && intent.amountMinor % 100 === DELAYED_AMOUNT_ENDING;
}

const CONFIRM: IntentAction = { type: 'confirm', result: 'processing' };
/** The statuses the domain lets an intent be confirmed from: the first statement's guard. */
const CONFIRMABLE = statusesAllowing(CONFIRM);

type Started =
  | { kind: 'charge'; intent: PaymentIntentRecord; attempt: ChargeAttemptRecord; connector: GatewayConnector }
  | { kind: 'delayed'; intent: PaymentIntentRecord }
  | { kind: 'expired' };

/**
 * Confirms an intent with a payment-method token, in two transactions so that none stays open
 * while the gateway is called:
 *   1. lock the intent, check that it may be confirmed, record the attempt (CHARGING; the unique
 *      index on open attempts refuses a second one) and the PENDING PAYMENT transaction; commit.
 *      One statement (`startConfirm`, one round trip) in the common case; an expired intent or a
 *      delayed test charge takes the transactional `startAttempt`, which writes those cases;
 *   2. charge through the connector with the attempt's idempotency key;
 *   3. apply the outcome (status, event, transaction) along the state machine, on the intent and
 *      attempt as step 1 left them, with writes guarded by their status (read again under the
 *      row locks only if something changed them meanwhile).
 * A concurrent confirm meets the open attempt in step 1 and gets 409; a crash after step 1 leaves
 * the attempt CHARGING, which reconciliation settles by syncing with the gateway.
 *
 * Throws 503 `gateway_unavailable` when the gateway did not take the charge (the intent stays
 * CREATED). A decline returns normally with `failure` set; `gatewayDeclineError` makes the 402.
 */
export async function confirmPaymentIntent(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
  input: ConfirmInput,
): Promise<AppliedOutcome> {
  const { token, offSession, savedMethodId } = await paymentMethodOf(ctx, scope, id, input);
  const started =
    savedMethodId === null
      ? ((await startInOneStatement(ctx, scope, id, token)) ??
        (await ctx.db.transaction((tx) => startAttempt(ctx, tx, scope, id, token))))
      : // A saved method: the attempt is recorded under its share lock, so that a detach committed
        // before this point is seen and one after it waits: no charge starts after a detach.
        await ctx.db.transaction(async (tx) => {
          if (!(await lockActiveSavedPaymentMethod(tx, scope, savedMethodId))) {
            throw new ValidationError(
              'saved_payment_method_id',
              `'${savedMethodId}' is detached and can no longer be charged`,
            );
          }
          return startAttempt(ctx, tx, scope, id, token);
        });
  if (started.kind === 'expired') throw new InvalidStateTransitionError('EXPIRED', 'confirm');
  if (started.kind === 'delayed') {
    return { intent: started.intent, failure: null, unavailable: null, warning: null };
  }

  const request = chargeRequestFor(
    started.intent,
    started.attempt,
    gatewayReturnAddress(ctx, started.connector, started.intent, started.attempt),
    { offSession },
  );
  const answered = await outcomeOrUnknown(started.connector, (c) => c.charge(request));
  const outcome = offSession ? withoutThePayer(answered) : answered;
  const applied = await applyAttemptOutcome(ctx, started.attempt, outcome, 'charge', started.intent);
  if (applied.unavailable) {
    throw new GatewayError(
      'gateway_unavailable',
      `Gateway '${started.intent.gatewayId}' did not take the payment; nothing was charged. Confirm again after the Retry-After pause.`,
      { retryAfterSeconds: applied.unavailable.retryAfterSeconds },
    );
  }
  return { ...applied, failure: applied.failure ?? failureSettledMeanwhile(applied.intent) };
}

export interface ConfirmInput {
  paymentMethodToken: string | undefined;
  /** A saved method of the intent's customer, instead of a token (secret key only). */
  savedPaymentMethodId?: string | undefined;
  /** The payer is absent: only with a saved method. */
  offSession?: boolean | undefined;
}

/**
 * What the confirm charges: the token, or the reusable reference of a saved method of the intent's
 * own customer at the intent's own gateway (read before anything is written: a method that is not
 * usable is a 400 naming the field, and nothing is charged). Another tenant's method reads as no
 * such method. A saved method's customer and gateway never change, nor an intent's customer, so
 * reading them before the confirm's own statement is safe.
 */
async function paymentMethodOf(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
  input: ConfirmInput,
): Promise<{ token: string; offSession: boolean; savedMethodId: string | null }> {
  const methodId = input.savedPaymentMethodId;
  if (methodId === undefined) {
    if (input.offSession === true) {
      throw new ValidationError(
        'off_session',
        'needs saved_payment_method_id: only a saved method is charged without the payer',
      );
    }
    if (input.paymentMethodToken === undefined) {
      throw new ValidationError('payment_method_token', 'is required to confirm a payment intent');
    }
    return { token: input.paymentMethodToken, offSession: false, savedMethodId: null };
  }
  if (input.paymentMethodToken !== undefined) {
    throw new ValidationError(
      'saved_payment_method_id',
      'cannot be given with payment_method_token: give one of them',
    );
  }
  const [intent, method] = await Promise.all([
    findPaymentIntent(ctx.db, scope, id),
    findSavedPaymentMethod(ctx.db, scope, methodId),
  ]);
  if (!intent) throw new NotFoundError('payment intent', id);
  const field = 'saved_payment_method_id';
  if (!method)
    throw new ValidationError(field, `no saved payment method '${methodId}' exists for this key and mode`);
  if (method.status !== 'active')
    throw new ValidationError(field, `'${methodId}' is detached and can no longer be charged`);
  if (method.customerId !== intent.customerId) {
    throw new ValidationError(
      field,
      intent.customerId === null
        ? `'${methodId}' belongs to a customer and this intent has none: create the intent with its customer_id`
        : `'${methodId}' belongs to another customer than the intent's`,
    );
  }
  if (method.gatewayId !== intent.gatewayId) {
    throw new ValidationError(
      field,
      `'${methodId}' is kept at gateway '${method.gatewayId}' and only it can charge it; the intent is on '${intent.gatewayId}'`,
    );
  }
  return { token: method.gatewayReference, offSession: input.offSession === true, savedMethodId: method.id };
}

/**
 * An off-session charge never waits for the payer: a gateway that still asks for them (a challenge
 * page) has not charged, and the payment fails as `authentication_required`, for the merchant to
 * bring the payer back on-session.
 */
function withoutThePayer(outcome: ChargeOutcome): ChargeOutcome {
  if (outcome.kind !== 'requires_action') return outcome;
  return {
    kind: 'failed',
    gatewayReference: outcome.gatewayReference,
    failureCode: 'card_declined',
    declineCode: 'authentication_required',
    message:
      'The card issuer wants the payer to authenticate this payment; charge it again with the payer present.',
  };
}

/**
 * The decline of this confirm's charge when the gateway's notification settled it before the
 * gateway's answer came back (Adyen notifies as it answers): the answer then changes nothing, but
 * the confirm still answers 402 as it would have, not 200, whichever arrived first. Only this
 * confirm's attempt was open (the open-attempt index), and only an attempt's failure makes an
 * intent FAILED, so a FAILED intent here failed through this charge.
 */
function failureSettledMeanwhile(intent: PaymentIntentRecord): AppliedOutcome['failure'] {
  const error = intent.status === 'FAILED' ? intent.lastPaymentError : null;
  if (!error) return null;
  return {
    code: error.code === 'card_declined' ? 'card_declined' : 'gateway_rejected',
    message: error.message,
  };
}

/**
 * Step 1 in one statement: the domain's decisions (which statuses may be confirmed, which gateways
 * take the token) go in, and the statement applies them under the intent's lock or writes nothing
 * and says what it found, which is answered here as `startAttempt` answers it. Null: the intent
 * expired or its charge is delayed, for `startAttempt`.
 */
async function startInOneStatement(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
  token: string,
): Promise<Started | null> {
  const now = ctx.clock.now();
  const taking = gatewaysTaking(ctx, token);
  const start = await startConfirm(ctx.db, {
    scope,
    paymentIntentId: id,
    confirmable: CONFIRMABLE,
    now,
    delayedEnding: DELAYED_AMOUNT_ENDING,
    processGateways: taking.process,
    accountConnectors: taking.accounts,
    paymentMethodToken: token,
    attemptStatus: 'CHARGING',
    nextCheckAt: addSeconds(now, CHARGING_LEASE_SECONDS),
    transactionId: newId('txn'),
  });
  switch (start.outcome) {
    case 'not_found':
      throw new NotFoundError('payment intent', id);
    case 'refused':
      transition(start.status, CONFIRM); // throws the domain's invalid_state_transition
      throw new Error(`confirm refused in status ${start.status}, which the domain allows`);
    case 'slow':
      return null;
    case 'attempt_open':
      throw alreadyBeingConfirmed();
    case 'refused_gateway': {
      if (start.openAttempt) throw alreadyBeingConfirmed();
      const key = { merchantId: scope.merchantId, livemode: scope.livemode, gatewayId: start.gatewayId };
      checkedConnector(connectorOfAccount(ctx, key, start.account, true), key, token);
      throw new Error(`gateway ${key.gatewayId} refused although it takes the token`);
    }
    case 'started': {
      const { intent, attempt } = start;
      const connector = connectorOfAccount(ctx, gatewayKeyOf(intent), start.account, true);
      if (!connector) throw new Error(`gateway ${intent.gatewayId} of ${intent.id} vanished`);
      return { kind: 'charge', intent, attempt, connector };
    }
    default: {
      const unreachable: never = start;
      return unreachable;
    }
  }
}

async function startAttempt(
  ctx: AppContext,
  tx: Queryable,
  scope: TenantScope,
  id: string,
  token: string,
): Promise<Started> {
  const intent = await findPaymentIntent(tx, scope, id, { forUpdate: true });
  if (!intent) throw new NotFoundError('payment intent', id);
  if (!canTransition(intent.status, { type: 'confirm', result: 'processing' })) {
    throw new InvalidStateTransitionError(intent.status, 'confirm');
  }
  const now = ctx.clock.now();
  // The expiry worker may not have reached it yet; an intent past expires_at is never charged. A
  // charge in flight for it is answered first, as for a concurrent confirm.
  if (intent.expiresAt.getTime() <= now.getTime()) {
    if (await findOpenAttempt(tx, intent.id)) throw alreadyBeingConfirmed();
    await applyIntentAction(tx, intent, { type: 'expire' }, now);
    return { kind: 'expired' };
  }
  const delayed = hasDelayedOutcome(intent);
  // The gateway's account (read again here, not at create: an account disabled since then takes
  // no new charge), the attempt and its PENDING transaction do not depend on each other: on a
  // pipelined connection all three travel in one round trip.
  const [connector, attempt] = await together(
    tx,
    () => connectorFor(ctx, gatewayKeyOf(intent), { forNewPayment: true, q: tx }),
    () =>
      insertChargeAttempt(tx, {
        paymentIntentId: intent.id,
        merchantId: intent.merchantId,
        livemode: intent.livemode,
        gatewayId: intent.gatewayId,
        paymentMethodToken: token,
        status: delayed ? 'DELAYED' : 'CHARGING',
        nextCheckAt: addSeconds(now, delayed ? DELAYED_OUTCOME_SECONDS : CHARGING_LEASE_SECONDS),
        createdAt: now,
        updatedAt: now,
      }).catch((error: unknown) => {
        // The open-attempt index, not a read before the insert, finds a confirm already in flight.
        throw error instanceof OpenAttemptExistsError ? alreadyBeingConfirmed() : error;
      }),
    () =>
      insertTransaction(tx, {
        id: newId('txn'),
        merchantId: intent.merchantId,
        livemode: intent.livemode,
        type: 'PAYMENT',
        status: 'PENDING',
        amountMinor: intent.amountMinor,
        currency: intent.currency,
        paymentIntentId: intent.id,
        refundId: null,
        gatewayId: intent.gatewayId,
        createdAt: now,
        updatedAt: now,
      }),
  );
  // A token this gateway cannot take at all: the transaction rolls back, so nothing is written.
  const usable = checkedConnector(connector, gatewayKeyOf(intent), token);
  if (delayed) {
    const processing = await applyIntentAction(tx, intent, { type: 'confirm', result: 'processing' }, now);
    return { kind: 'delayed', intent: processing };
  }
  return { kind: 'charge', intent, attempt, connector: usable };
}

/** The gateway of a new payment, or the 400 that says why it cannot take this one. */
function checkedConnector(
  connector: GatewayConnector | null,
  key: GatewayKey,
  token: string,
): GatewayConnector {
  if (!connector) throw noGatewayError(key);
  const tokenProblem = connector.tokenProblem?.(token);
  if (tokenProblem) throw new ValidationError('payment_method_token', tokenProblem);
  return connector;
}

/** 409 for a confirm while another confirm of the intent is charging it. */
function alreadyBeingConfirmed(): AppError {
  return new AppError(
    'invalid_state_transition',
    'This payment intent is already being confirmed; retrieve it to see the outcome.',
  );
}

/**
 * `POST /v1/payment-intents/{id}/confirm`: the confirm, answered as its caller sees the intent
 * (the payer's client secret checked first). A decline throws the 402 that carries the failed
 * intent; `onWarning` hears what the confirm noticed but did not fail for.
 */
export async function confirmPaymentIntentAs(
  ctx: AppContext,
  caller: IntentCaller,
  id: string,
  input: ConfirmInput,
  onWarning: (warning: string) => void,
): Promise<PaymentIntent> {
  const render = intentViewOf(ctx, caller, id);
  // The payer's browser pays with what it entered; choosing a saved method is the merchant's server's.
  if (
    caller.kind !== 'secret' &&
    (input.savedPaymentMethodId !== undefined || input.offSession !== undefined)
  ) {
    throw new ValidationError(
      input.savedPaymentMethodId !== undefined ? 'saved_payment_method_id' : 'off_session',
      "is taken from a secret key only, never from the payer's browser",
    );
  }
  const result = await confirmPaymentIntent(ctx, caller, id, input);
  if (result.warning) onWarning(result.warning);
  if (result.failure) throw gatewayDeclineError(result.failure, await render(result.intent));
  return render(result.intent);
}

/** The one place a decline at confirm becomes its problem: 402 with the failed intent in it. */
export function gatewayDeclineError(
  failure: NonNullable<AppliedOutcome['failure']>,
  intent: PaymentIntent,
): GatewayError {
  return new GatewayError(failure.code, failure.message, { members: { payment_intent: intent } });
}
