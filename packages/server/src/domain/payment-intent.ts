import { paymentIntentStatuses } from '@paygate/contract';
import { InvalidStateTransitionError } from './errors.ts';
import type { EventType } from './events.ts';

export type PaymentIntentStatus = (typeof paymentIntentStatuses)[number];

export const terminalStatuses: ReadonlySet<PaymentIntentStatus> = new Set([
  'SUCCEEDED',
  'FAILED',
  'CANCELED',
  'EXPIRED',
]);

/**
 * What a gateway said about a charge, in our words. `authorized`: a manual intent's charge is
 * authorised and waits for its capture (REQUIRES_CAPTURE).
 */
export type ChargeResult = 'succeeded' | 'failed' | 'requires_action' | 'processing' | 'authorized';

export type IntentAction =
  | { type: 'confirm'; result: ChargeResult }
  /** The payer finished (or abandoned) the gateway's page, or the gateway settled a pending charge. */
  | { type: 'gateway_outcome'; result: Exclude<ChargeResult, 'requires_action'> }
  | { type: 'cancel' }
  | { type: 'expire' }
  /** The gateway captured a REQUIRES_CAPTURE intent's authorisation (all or part of it). */
  | { type: 'capture' }
  /** A REQUIRES_CAPTURE intent's authorisation lapsed at `capture_before` without a capture. */
  | { type: 'expire_authorization' };

export interface Transition {
  from: PaymentIntentStatus;
  to: PaymentIntentStatus;
  event: EventType | null;
}

function eventFor(to: PaymentIntentStatus): EventType | null {
  switch (to) {
    case 'REQUIRES_ACTION':
      return 'payment_intent.requires_action';
    case 'REQUIRES_CAPTURE':
      return 'payment_intent.requires_capture';
    case 'SUCCEEDED':
      return 'payment_intent.succeeded';
    case 'FAILED':
      return 'payment_intent.failed';
    case 'CANCELED':
      return 'payment_intent.canceled';
    case 'EXPIRED':
      return 'payment_intent.expired';
    case 'CREATED':
    case 'PROCESSING':
      return null;
    default: {
      const unreachable: never = to;
      return unreachable;
    }
  }
}

/**
 * The status an intent is shown with. A CREATED intent whose charge has been sent to the gateway
 * and not answered yet (a confirm in flight, or one cut off before it recorded the answer) reads
 * PROCESSING: the payer may be charged, and a merchant that read CREATED as "not charged" would
 * charge them again on a new intent. Confirm and cancel refuse it, as they refuse PROCESSING.
 */
export function shownStatus(
  status: PaymentIntentStatus,
  chargeInFlight: boolean,
  authorizationInFlight = false,
): PaymentIntentStatus {
  if (status === 'CREATED' && chargeInFlight) return 'PROCESSING';
  // A capture (or void) sent and not settled: the money may be moving, as for a charge in flight.
  if (status === 'REQUIRES_CAPTURE' && authorizationInFlight) return 'PROCESSING';
  return status;
}

function statusForResult(result: ChargeResult): PaymentIntentStatus {
  switch (result) {
    case 'succeeded':
      return 'SUCCEEDED';
    case 'failed':
      return 'FAILED';
    case 'requires_action':
      return 'REQUIRES_ACTION';
    case 'processing':
      return 'PROCESSING';
    case 'authorized':
      return 'REQUIRES_CAPTURE';
    default: {
      const unreachable: never = result;
      return unreachable;
    }
  }
}

function operationName(action: IntentAction): string {
  if (action.type === 'gateway_outcome') return 'apply a gateway outcome to';
  if (action.type === 'expire_authorization') return 'expire the authorisation of';
  return action.type;
}

/**
 * The payment-intent state machine of the contract. Returns the next status and the event the
 * change emits, or throws `invalid_state_transition`. Pure: callers persist the result.
 *
 *   CREATED          --confirm-->          SUCCEEDED | FAILED | REQUIRES_ACTION | PROCESSING
 *   REQUIRES_ACTION  --gateway outcome-->  PROCESSING | SUCCEEDED | FAILED
 *   PROCESSING       --gateway outcome-->  SUCCEEDED | FAILED
 *   CREATED | REQUIRES_ACTION --cancel--> CANCELED,  --expire--> EXPIRED
 *   (capture_method manual: an authorised charge is REQUIRES_CAPTURE instead of SUCCEEDED)
 *   CREATED          --confirm-->          REQUIRES_CAPTURE
 *   REQUIRES_ACTION | PROCESSING --gateway outcome--> REQUIRES_CAPTURE
 *   REQUIRES_CAPTURE --capture-->          SUCCEEDED
 *   REQUIRES_CAPTURE --cancel (a void)-->  CANCELED,  --expire_authorization--> CANCELED
 */
export function transition(from: PaymentIntentStatus, action: IntentAction): Transition {
  const to = nextStatus(from, action);
  if (to === null) throw new InvalidStateTransitionError(from, operationName(action));
  return { from, to, event: eventFor(to) };
}

export function canTransition(from: PaymentIntentStatus, action: IntentAction): boolean {
  return nextStatus(from, action) !== null;
}

/** Every status from which `action` is allowed: what a guarded write in SQL may find (and nothing else). */
export function statusesAllowing(action: IntentAction): PaymentIntentStatus[] {
  return paymentIntentStatuses.filter((status) => canTransition(status, action));
}

function nextStatus(from: PaymentIntentStatus, action: IntentAction): PaymentIntentStatus | null {
  switch (action.type) {
    case 'confirm':
      return from === 'CREATED' ? statusForResult(action.result) : null;
    case 'gateway_outcome':
      if (from === 'REQUIRES_ACTION') return statusForResult(action.result);
      if (from === 'PROCESSING' && action.result !== 'processing') return statusForResult(action.result);
      return null;
    case 'cancel':
      return from === 'CREATED' || from === 'REQUIRES_ACTION' || from === 'REQUIRES_CAPTURE'
        ? 'CANCELED'
        : null;
    case 'expire':
      return from === 'CREATED' || from === 'REQUIRES_ACTION' ? 'EXPIRED' : null;
    case 'capture':
    case 'expire_authorization':
      return from === 'REQUIRES_CAPTURE' ? (action.type === 'capture' ? 'SUCCEEDED' : 'CANCELED') : null;
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}
