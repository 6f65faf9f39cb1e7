// The rules of reconciliation, as a pure comparison of what Paygate knows with what the gateway's
// books show for the same window. No I/O: app/reconcile-with-gateway.ts reads both sides and
// repairs what these rules call repairable.
import type { BookCharge, BookRefund } from '../gateways/connector.ts';
import type { KnownCharge, KnownRefund } from '../storage/repositories/reconciliation.ts';

export type DifferenceKind =
  /** The gateway has a charge or refund whose idempotency key Paygate never sent. */
  | 'unknown_to_paygate'
  /** Paygate has it as settled, or waiting long past any answer, and the gateway has no record. */
  | 'missing_at_gateway'
  /** Both have it, in states that disagree. */
  | 'status_differs'
  /** Both have it, for different amounts or currencies. */
  | 'amount_differs';

export interface Difference {
  kind: DifferenceKind;
  object: 'charge' | 'refund';
  /** The payment intent (charge) or refund id at Paygate; null when Paygate has no record. */
  paygateId: string | null;
  idempotencyKey: string;
  gatewayReference: string | null;
  paygateStatus: string | null;
  gatewayStatus: string | null;
  /**
   * Whether reading the gateway's state and applying it settles the difference: true when
   * Paygate still waits for an outcome the gateway has (or has lost track of the request).
   */
  repairable: boolean;
  detail: string;
}

/** Open records younger than this may still be on their way to the gateway: not a difference. */
export const IN_FLIGHT_GRACE_MS = 10 * 60 * 1000;

function chargeStatusAgrees(paygate: KnownCharge['status'], gateway: BookCharge['status'] | null): boolean {
  switch (paygate) {
    case 'SUCCEEDED':
      return gateway === 'succeeded';
    // A refusal the gateway answered with an error leaves no charge at the gateway. A charge
    // still waiting there for a payer who was never shown its page (Paygate gave up on it) took
    // no money; if the payer ever completes it, it is a capture, which is a difference.
    case 'FAILED':
      return gateway === 'failed' || gateway === null || gateway === 'requires_action';
    // Refused with "unavailable": nothing was taken. A delayed charge is not sent yet.
    case 'UNAVAILABLE':
    case 'DELAYED':
      return gateway === null;
    // Closed without an outcome (the payer never finished, or no answer came within the
    // processing deadline): anything but a capture took no money.
    case 'ABANDONED':
    case 'TIMED_OUT':
      return gateway !== 'succeeded';
    case 'REQUIRES_ACTION':
      return gateway === 'requires_action';
    case 'CHARGING':
    case 'PROCESSING':
      return gateway === 'pending';
    default: {
      const unreachable: never = paygate;
      return unreachable;
    }
  }
}

function refundStatusAgrees(paygate: KnownRefund['status'], gateway: BookRefund['status'] | null): boolean {
  switch (paygate) {
    case 'SUCCEEDED':
      return gateway === 'succeeded';
    case 'FAILED':
      return gateway === 'failed' || gateway === null;
    case 'PENDING':
      return gateway === 'pending';
    default: {
      const unreachable: never = paygate;
      return unreachable;
    }
  }
}

const openChargeStatuses = new Set<KnownCharge['status']>(['CHARGING', 'PROCESSING', 'REQUIRES_ACTION']);

function chargeDifference(known: KnownCharge, book: BookCharge | null, now: Date): Difference | null {
  const base = {
    object: 'charge' as const,
    paygateId: known.paymentIntentId,
    idempotencyKey: known.idempotencyKey,
    gatewayReference: book?.gatewayReference ?? known.gatewayReference,
    paygateStatus: known.status,
    gatewayStatus: book?.status ?? null,
  };
  if (book && (book.amountMinor !== known.amountMinor || book.currency !== known.currency)) {
    return {
      ...base,
      kind: 'amount_differs',
      repairable: false,
      detail: `Paygate has ${known.amountMinor} ${known.currency}, the gateway ${book.amountMinor} ${book.currency}`,
    };
  }
  if (chargeStatusAgrees(known.status, book?.status ?? null)) return null;
  const open = openChargeStatuses.has(known.status);
  if (book === null) {
    // An open charge without a record may still be on its way; long after, it never arrived.
    if (open && now.getTime() - known.createdAt.getTime() < IN_FLIGHT_GRACE_MS) return null;
    return {
      ...base,
      kind: 'missing_at_gateway',
      repairable: open,
      detail: open
        ? 'the charge never reached the gateway; the intent waits for nothing'
        : `Paygate has the charge ${known.status} and the gateway has no record of it`,
    };
  }
  if (open && book.status === 'pending') return null;
  if (known.lateCaptureRepair === 'REFUNDED') return null;
  if (known.lateCaptureRepair !== null) {
    return {
      ...base,
      kind: 'status_differs',
      // A refund the gateway refused (REFUND_FAILED) is the operator's; the others are under way.
      repairable: known.lateCaptureRepair !== 'REFUND_FAILED',
      detail: `a late capture: the gateway captured a charge Paygate has ${known.status}; its refund is ${known.lateCaptureRepair}`,
    };
  }
  if (book.status === 'succeeded' && known.status !== 'SUCCEEDED') {
    // A capture Paygate never heard of: applying it records a late capture, which is refunded.
    return {
      ...base,
      kind: 'status_differs',
      repairable: true,
      detail: `the gateway captured a charge Paygate has ${known.status}: it is recorded as a late capture and refunded`,
    };
  }
  return {
    ...base,
    kind: 'status_differs',
    repairable: open,
    detail: open
      ? `the gateway has decided (${book.status}); Paygate still waits`
      : `Paygate has the charge ${known.status}, the gateway ${book.status}`,
  };
}

function refundDifference(known: KnownRefund, book: BookRefund | null, now: Date): Difference | null {
  const base = {
    object: 'refund' as const,
    paygateId: known.id,
    idempotencyKey: known.idempotencyKey,
    gatewayReference: book?.gatewayReference ?? known.gatewayReference,
    paygateStatus: known.status,
    gatewayStatus: book?.status ?? null,
  };
  if (book && (book.amountMinor !== known.amountMinor || book.currency !== known.currency)) {
    return {
      ...base,
      kind: 'amount_differs',
      repairable: false,
      detail: `Paygate has ${known.amountMinor} ${known.currency}, the gateway ${book.amountMinor} ${book.currency}`,
    };
  }
  if (refundStatusAgrees(known.status, book?.status ?? null)) return null;
  const pending = known.status === 'PENDING';
  if (book === null && pending && now.getTime() - known.createdAt.getTime() < IN_FLIGHT_GRACE_MS) return null;
  return {
    ...base,
    kind: book === null ? 'missing_at_gateway' : 'status_differs',
    repairable: pending,
    detail: pending
      ? book === null
        ? 'the refund never reached the gateway; it waits for nothing'
        : `the gateway has settled the refund (${book.status}); Paygate still has it PENDING`
      : `Paygate has the refund ${known.status}, the gateway ${book?.status ?? 'no record'}`,
  };
}

function unknownToPaygate(object: 'charge' | 'refund', book: BookCharge | BookRefund): Difference {
  return {
    kind: 'unknown_to_paygate',
    object,
    paygateId: null,
    idempotencyKey: book.idempotencyKey,
    gatewayReference: book.gatewayReference,
    paygateStatus: null,
    gatewayStatus: book.status,
    repairable: false,
    detail: `the gateway has a ${book.status} ${object} of ${book.amountMinor} ${book.currency} that Paygate never recorded`,
  };
}

function inWindow(createdAt: Date, window: { from: Date; to: Date }): boolean {
  return createdAt >= window.from && createdAt < window.to;
}

/** Books count in whole seconds: the window, widened to whole seconds, for their entries. */
function wholeSeconds(window: { from: Date; to: Date }): { from: Date; to: Date } {
  return {
    from: new Date(Math.floor(window.from.getTime() / 1000) * 1000),
    to: new Date(Math.ceil(window.to.getTime() / 1000) * 1000),
  };
}

/**
 * Compares both sides for `window`. Each side was read over a wider window (the two clocks and
 * the moment of sending differ a little), so a record inside the window is matched against
 * everything the other side has near it, by idempotency key.
 */
export function findDifferences(
  window: { from: Date; to: Date },
  now: Date,
  paygate: { charges: KnownCharge[]; refunds: KnownRefund[] },
  gateway: { charges: BookCharge[]; refunds: BookRefund[] },
): { differences: Difference[]; checkedCharges: number; checkedRefunds: number } {
  const differences: Difference[] = [];
  const bookWindow = wholeSeconds(window);
  const bookCharges = new Map(gateway.charges.map((c) => [c.idempotencyKey, c]));
  const bookRefunds = new Map(gateway.refunds.map((r) => [r.idempotencyKey, r]));
  const knownChargeKeys = new Set(paygate.charges.map((c) => c.idempotencyKey));
  const knownRefundKeys = new Set(paygate.refunds.map((r) => r.idempotencyKey));
  let checkedCharges = 0;
  let checkedRefunds = 0;

  for (const known of paygate.charges) {
    const book = bookCharges.get(known.idempotencyKey) ?? null;
    if (!inWindow(known.createdAt, window) && !(book && inWindow(book.createdAt, bookWindow))) continue;
    checkedCharges += 1;
    const difference = chargeDifference(known, book, now);
    if (difference) differences.push(difference);
  }
  for (const book of gateway.charges) {
    if (!inWindow(book.createdAt, bookWindow) || knownChargeKeys.has(book.idempotencyKey)) continue;
    checkedCharges += 1;
    differences.push(unknownToPaygate('charge', book));
  }
  for (const known of paygate.refunds) {
    const book = bookRefunds.get(known.idempotencyKey) ?? null;
    if (!inWindow(known.createdAt, window) && !(book && inWindow(book.createdAt, bookWindow))) continue;
    checkedRefunds += 1;
    const difference = refundDifference(known, book, now);
    if (difference) differences.push(difference);
  }
  for (const book of gateway.refunds) {
    if (!inWindow(book.createdAt, bookWindow) || knownRefundKeys.has(book.idempotencyKey)) continue;
    checkedRefunds += 1;
    differences.push(unknownToPaygate('refund', book));
  }
  return { differences, checkedCharges, checkedRefunds };
}
