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

/** What a gateway said about a charge, in our words. */
export type ChargeResult = 'succeeded' | 'failed' | 'requires_action' | 'processing';

export type IntentAction =
  | { type: 'confirm'; result: ChargeResult }
  /** The payer finished (or abandoned) the gateway's page, or the gateway settled a pending charge. */
  | { type: 'gateway_outcome'; result: Exclude<ChargeResult, 'requires_action'> }
  | { type: 'cancel' }
  | { type: 'expire' };

export interface Transition {
  from: PaymentIntentStatus;
  to: PaymentIntentStatus;
  event: EventType | null;
}

function eventFor(to: PaymentIntentStatus): EventType | null {
  switch (to) {
    case 'REQUIRES_ACTION':
      return 'payment_intent.requires_action';
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
export function shownStatus(status: PaymentIntentStatus, chargeInFlight: boolean): PaymentIntentStatus {
  return status === 'CREATED' && chargeInFlight ? 'PROCESSING' : status;
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
    default: {
      const unreachable: never = result;
      return unreachable;
    }
  }
}

function operationName(action: IntentAction): string {
  return action.type === 'gateway_outcome' ? 'apply a gateway outcome to' : action.type;
}

/**
 * The payment-intent state machine of the contract. Returns the next status and the event the
 * change emits, or throws `invalid_state_transition`. Pure: callers persist the result.
 *
 *   CREATED          --confirm-->          SUCCEEDED | FAILED | REQUIRES_ACTION | PROCESSING
 *   REQUIRES_ACTION  --gateway outcome-->  PROCESSING | SUCCEEDED | FAILED
 *   PROCESSING       --gateway outcome-->  SUCCEEDED | FAILED
 *   CREATED | REQUIRES_ACTION --cancel--> CANCELED,  --expire--> EXPIRED
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
      return from === 'CREATED' || from === 'REQUIRES_ACTION' ? 'CANCELED' : null;
    case 'expire':
      return from === 'CREATED' || from === 'REQUIRES_ACTION' ? 'EXPIRED' : null;
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}
