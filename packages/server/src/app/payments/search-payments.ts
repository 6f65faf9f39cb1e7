import { PAYMENT_SEARCH_DEFAULT_LIMIT, type PaymentSearchQuery } from '@paygate/contract';
import { capturedAmount } from '../../domain/capture.ts';
import { csvLine, keysetCsv } from '../../domain/csv.ts';
import { ValidationError } from '../../domain/errors.ts';
import { keysetPage, keysetSide } from '../../domain/keyset.ts';
import { isIsoCurrency } from '../../domain/money.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { decodeTransactionCursor, encodeTransactionCursor } from '../../domain/transaction-cursor.ts';
import type { PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import { type PaymentSearchFilter, searchPaymentIntents } from '../../storage/repositories/payment-search.ts';
import type { AppContext } from '../context.ts';

export type PaymentFilterInput = Omit<PaymentSearchQuery, 'limit' | 'cursor' | 'before'>;

/** A `from` or `to` filter as an instant; one without a time zone names its field (also the events list's). */
export function instant(field: 'from' | 'to', value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms) || !/[zZ]|[+-]\d{2}:?\d{2}$/.test(value)) {
    throw new ValidationError(
      field,
      'must be an ISO 8601 instant with a time zone, e.g. 2026-03-01T00:00:00Z',
    );
  }
  return new Date(ms);
}

/** The filters as the repository takes them, after the checks a schema cannot make. */
export function paymentFilterOf(input: PaymentFilterInput): PaymentSearchFilter {
  const currency = input.currency?.toUpperCase();
  if (currency !== undefined && !isIsoCurrency(currency)) {
    throw new ValidationError('currency', 'must be an ISO 4217 currency code');
  }
  if (
    input.amount_min !== undefined &&
    input.amount_max !== undefined &&
    input.amount_min > input.amount_max
  ) {
    throw new ValidationError('amount_max', 'must not be below amount_min');
  }
  if (input.metadata_value !== undefined && input.metadata_key === undefined) {
    throw new ValidationError('metadata_key', 'is required with metadata_value');
  }
  const filter: PaymentSearchFilter = {
    id: input.id,
    status: input.status,
    amountMin: input.amount_min,
    amountMax: input.amount_max,
    currency,
    from: instant('from', input.from),
    to: instant('to', input.to),
    metadataKey: input.metadata_key,
    metadataValue: input.metadata_value,
  };
  for (const key of Object.keys(filter) as (keyof PaymentSearchFilter)[]) {
    if (filter[key] === undefined) delete filter[key];
  }
  return filter;
}

/**
 * One page of the payments the filters find, newest first, with opaque cursors for the next
 * (older) and the previous (newer) page.
 */
export async function searchPayments(ctx: AppContext, scope: TenantScope, query: PaymentSearchQuery) {
  const filter = paymentFilterOf(query);
  const limit = query.limit ?? PAYMENT_SEARCH_DEFAULT_LIMIT;
  const side = keysetSide(query.cursor, query.before, (cursor) =>
    decodeTransactionCursor(cursor, ctx.cursorKey, 'pi'),
  );
  const rows = await searchPaymentIntents(ctx.db, scope, filter, side, limit + 1);
  const page = keysetPage(rows, limit, side);
  const first = page.rows[0];
  const last = page.rows.at(-1);
  return {
    intents: page.rows.map((row) => row.intent),
    hasMore: page.hasOlder,
    nextCursor: page.hasOlder && last ? encodeTransactionCursor(last.position, ctx.cursorKey) : null,
    previousCursor: page.hasNewer && first ? encodeTransactionCursor(first.position, ctx.cursorKey) : null,
  };
}

export const PAYMENT_CSV_COLUMNS = [
  'id',
  'created_at',
  'status',
  'amount_minor',
  'currency',
  'amount_refunded_minor',
  'gateway_id',
  'livemode',
  'metadata',
  // Capture later (issue 43), after the columns of before: a reader of those finds them where they were.
  'capture_method',
  'amount_captured_minor',
  'capture_before',
] as const;

function csvRow(intent: PaymentIntentRecord): string {
  return csvLine([
    intent.id,
    intent.createdAt.toISOString(),
    intent.status,
    intent.amountMinor,
    intent.currency,
    intent.amountRefundedMinor,
    intent.gatewayId,
    intent.livemode,
    JSON.stringify(intent.metadata),
    intent.captureMethod,
    capturedAmount(intent),
    intent.status === 'REQUIRES_CAPTURE' ? (intent.captureBefore?.toISOString() ?? '') : '',
  ]);
}

/** Every payment the filters find, as CSV text (domain/csv.ts's keysetCsv: flat memory). */
export function exportPaymentsCsv(
  ctx: AppContext,
  scope: TenantScope,
  input: PaymentFilterInput,
): AsyncIterable<string> {
  const filter = paymentFilterOf(input);
  return keysetCsv(
    PAYMENT_CSV_COLUMNS,
    (after: PaymentSearchRowPosition | undefined, limit) =>
      searchPaymentIntents(ctx.db, scope, filter, after ? { older: after } : null, limit),
    (row) => csvRow(row.intent),
  );
}

type PaymentSearchRowPosition = Awaited<ReturnType<typeof searchPaymentIntents>>[number]['position'];
