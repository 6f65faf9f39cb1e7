// The rules of reconciliation, as a pure comparison of what Paygate knows with what the gateway's
// books show for the same window. No I/O: app/gateways/reconcile-with-gateway.ts reads both sides and
// repairs what these rules call repairable.
import type { BookCharge, BookRefund } from '../../gateways/connector.ts';
import type { KnownCharge, KnownRefund } from '../../storage/repositories/reconciliation.ts';

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
  /** Whose record it is at Paygate; null when Paygate has no record. */
  merchantId: string | null;
  /** The payment intent (charge) or refund id at Paygate; null when Paygate has no record. */
  paygateId: string | null;
  idempotencyKey: string;
  gatewayReference: string | null;
  paygateStatus: string | null;
  gatewayStatus: string | null;
  /** The amount in minor units: Paygate's when it has the record, else the gateway's. */
  amountMinor: number;
  currency: string;
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

/**
 * The members a difference of one record has whatever is found (`base`), and the difference when
 * the amounts disagree: that is checked first, for charges and refunds alike, and never repaired.
 */
function sideBySide(
  object: Difference['object'],
  paygateId: string,
  known: KnownCharge | KnownRefund,
  book: BookCharge | BookRefund | null,
): { base: Omit<Difference, 'kind' | 'repairable' | 'detail'>; amountDiffers: Difference | null } {
  const base = {
    object,
    merchantId: known.merchantId,
    paygateId,
    idempotencyKey: known.idempotencyKey,
    gatewayReference: book?.gatewayReference ?? known.gatewayReference,
    paygateStatus: known.status,
    gatewayStatus: book?.status ?? null,
    amountMinor: known.amountMinor,
    currency: known.currency,
  };
  if (!book || (book.amountMinor === known.amountMinor && book.currency === known.currency)) {
    return { base, amountDiffers: null };
  }
  return {
    base,
    amountDiffers: {
      ...base,
      kind: 'amount_differs',
      repairable: false,
      detail: `Paygate has ${known.amountMinor} ${known.currency}, the gateway ${book.amountMinor} ${book.currency}`,
    },
  };
}

const openChargeStatuses = new Set<KnownCharge['status']>(['CHARGING', 'PROCESSING', 'REQUIRES_ACTION']);

/**
 * A manual intent's authorised charge against the books: still authorised agrees with a pending
 * charge, captured with a succeeded one of the captured amount, released with one that took
 * nothing. An authorisation the gateway dropped before Paygate's `capture_before`, or captured or
 * released behind Paygate's back, is a difference for the operator (a capture after the release
 * is a late capture, which the notification or the sync records and refunds).
 */
function authorizationDifference(
  known: KnownCharge,
  book: BookCharge | null,
  base: Omit<Difference, 'kind' | 'repairable' | 'detail'>,
  amountDiffers: Difference | null,
): Difference | null {
  const gateway = book?.status ?? null;
  const agrees =
    known.authorization === 'authorised'
      ? gateway === 'pending'
      : known.authorization === 'captured'
        ? gateway === 'succeeded'
        : gateway !== 'succeeded';
  if (agrees) return known.authorization === 'captured' ? amountDiffers : null;
  if (book === null) {
    return {
      ...base,
      kind: 'missing_at_gateway',
      repairable: false,
      detail: `Paygate has the charge ${known.authorization} and the gateway has no record of it`,
    };
  }
  const detail =
    known.authorization === 'authorised'
      ? gateway === 'failed'
        ? 'the gateway dropped the authorisation before capture_before: Paygate still has it REQUIRES_CAPTURE, and a capture will be refused'
        : `the gateway has the authorised charge ${gateway}; Paygate has not captured it`
      : known.authorization === 'captured'
        ? `Paygate captured the charge, the gateway has it ${gateway}`
        : known.lateCaptureRepair
          ? `a late capture: the gateway captured a charge Paygate released; its refund is ${known.lateCaptureRepair}`
          : 'the gateway captured a charge Paygate released (voided or lapsed)';
  return { ...base, kind: 'status_differs', repairable: false, detail };
}

function chargeDifference(known: KnownCharge, book: BookCharge | null, now: Date): Difference | null {
  const { base, amountDiffers } = sideBySide('charge', known.paymentIntentId, known, book);
  if (amountDiffers) return amountDiffers;
  if (known.captureReversal !== null && known.status === 'SUCCEEDED') {
    // The gateway undid a capture after reporting it (capture_reversals): whatever its books show
    // now, the operator settles it; the contract has no way back from SUCCEEDED.
    return {
      ...base,
      kind: 'status_differs',
      repairable: false,
      detail: `the gateway reversed the capture of a charge Paygate has SUCCEEDED (reversal ${known.captureReversal}): settle it with the gateway`,
    };
  }
  if (known.authorization) return authorizationDifference(known, book, base, amountDiffers);
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
  const { base, amountDiffers } = sideBySide('refund', known.id, known, book);
  if (amountDiffers) return amountDiffers;
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
    merchantId: null,
    paygateId: null,
    idempotencyKey: book.idempotencyKey,
    gatewayReference: book.gatewayReference,
    paygateStatus: null,
    gatewayStatus: book.status,
    amountMinor: book.amountMinor,
    currency: book.currency,
    repairable: false,
    detail: `the gateway has a ${book.status} ${object} of ${book.amountMinor} ${book.currency} that Paygate never recorded`,
  };
}

/** A span of time, `from` included and `to` excluded. */
type Window = { from: Date; to: Date };

function inWindow(createdAt: Date, window: Window): boolean {
  return createdAt >= window.from && createdAt < window.to;
}

/** Books count in whole seconds: the window, widened to whole seconds, for their entries. */
function wholeSeconds(window: Window): Window {
  return {
    from: new Date(Math.floor(window.from.getTime() / 1000) * 1000),
    to: new Date(Math.ceil(window.to.getTime() / 1000) * 1000),
  };
}

/**
 * One kind of record (charges or refunds) on both sides: each of Paygate's records in the window
 * (or whose gateway entry is) against the gateway's entry with its idempotency key, then each
 * gateway entry in the window that Paygate has no record of.
 */
function compareRecords<
  K extends { idempotencyKey: string; createdAt: Date },
  B extends BookCharge | BookRefund,
>(
  object: Difference['object'],
  windows: { paygate: Window; books: Window },
  known: readonly K[],
  books: readonly B[],
  differenceOf: (known: K, book: B | null) => Difference | null,
  settledOnly: boolean,
): { differences: Difference[]; checked: number } {
  const differences: Difference[] = [];
  const booksByKey = new Map(books.map((b) => [b.idempotencyKey, b]));
  const knownKeys = new Set(known.map((k) => k.idempotencyKey));
  let checked = 0;
  for (const record of known) {
    const book = booksByKey.get(record.idempotencyKey) ?? null;
    if (!inWindow(record.createdAt, windows.paygate) && !(book && inWindow(book.createdAt, windows.books)))
      continue;
    // Books of what was settled lack everything not settled yet: only what they show is compared.
    if (settledOnly && book === null) continue;
    checked += 1;
    const difference = differenceOf(record, book);
    if (difference) differences.push(difference);
  }
  for (const book of books) {
    if (!inWindow(book.createdAt, windows.books) || knownKeys.has(book.idempotencyKey)) continue;
    checked += 1;
    differences.push(unknownToPaygate(object, book));
  }
  return { differences, checked };
}

/**
 * Compares both sides for `window`. Each side was read over a wider window (the two clocks and
 * the moment of sending differ a little), so a record inside the window is matched against
 * everything the other side has near it, by idempotency key.
 */
export function findDifferences(
  window: Window,
  now: Date,
  paygate: { charges: KnownCharge[]; refunds: KnownRefund[] },
  gateway: { charges: BookCharge[]; refunds: BookRefund[]; coverage?: 'all' | 'settled' },
): { differences: Difference[]; checkedCharges: number; checkedRefunds: number } {
  const windows = { paygate: window, books: wholeSeconds(window) };
  const settledOnly = gateway.coverage === 'settled';
  const charges = compareRecords(
    'charge',
    windows,
    paygate.charges,
    gateway.charges,
    (known, book) => chargeDifference(known, book, now),
    settledOnly,
  );
  const refunds = compareRecords(
    'refund',
    windows,
    paygate.refunds,
    gateway.refunds,
    (known, book) => refundDifference(known, book, now),
    settledOnly,
  );
  return {
    differences: [...charges.differences, ...refunds.differences],
    checkedCharges: charges.checked,
    checkedRefunds: refunds.checked,
  };
}
