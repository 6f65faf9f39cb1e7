import { EVENT_SEARCH_DEFAULT_LIMIT, type EventSearchQuery } from '@paygate/contract';
import { csvLine, keysetCsv } from '../../domain/csv.ts';
import { keysetPage, keysetSide } from '../../domain/keyset.ts';
import type { ListPosition } from '../../domain/list-cursor.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { decodeTransactionCursor, encodeTransactionCursor } from '../../domain/transaction-cursor.ts';
import {
  type EventLogFilter,
  type EventLogRecord,
  searchEventLog,
} from '../../storage/repositories/event-log.ts';
import type { AppContext } from '../context.ts';
import { instant } from '../payments/search-payments.ts';

export type EventFilterInput = Omit<EventSearchQuery, 'limit' | 'cursor' | 'before'>;

function filterOf(input: EventFilterInput): EventLogFilter {
  return {
    type: input.type,
    objectId: input.object_id,
    from: instant('from', input.from),
    to: instant('to', input.to),
  };
}

export interface EventPage {
  events: EventLogRecord[];
  hasMore: boolean;
  nextCursor: string | null;
  previousCursor: string | null;
}

/**
 * One page of the events of one merchant and mode, newest first, each with how its deliveries
 * stand; keyset pages both ways (domain/keyset.ts) with the payments' signed cursors.
 */
export async function searchEvents(
  ctx: AppContext,
  scope: TenantScope,
  query: EventSearchQuery,
): Promise<EventPage> {
  const filter = filterOf(query);
  const limit = query.limit ?? EVENT_SEARCH_DEFAULT_LIMIT;
  const side = keysetSide(query.cursor, query.before, (cursor) =>
    decodeTransactionCursor(cursor, ctx.cursorKey, 'evt'),
  );
  const rows = await searchEventLog(ctx.db, scope, filter, side, limit + 1);
  const page = keysetPage(rows, limit, side);
  const first = page.rows[0];
  const last = page.rows.at(-1);
  return {
    events: page.rows.map((row) => row.event),
    hasMore: page.hasOlder,
    nextCursor: page.hasOlder && last ? encodeTransactionCursor(last.position, ctx.cursorKey) : null,
    previousCursor: page.hasNewer && first ? encodeTransactionCursor(first.position, ctx.cursorKey) : null,
  };
}

export const EVENT_CSV_COLUMNS = [
  'id',
  'created_at',
  'type',
  'object_id',
  'payment_intent_id',
  'livemode',
  'deliveries_total',
  'deliveries_delivered',
  'deliveries_pending',
  'deliveries_failed',
] as const;

function csvRow(event: EventLogRecord): string {
  return csvLine([
    event.id,
    event.createdAt.toISOString(),
    event.type,
    event.objectId,
    event.paymentIntentId,
    event.livemode,
    event.deliveries.total,
    event.deliveries.delivered,
    event.deliveries.pending,
    event.deliveries.failed,
  ]);
}

/** Every event the filters find, as CSV text (domain/csv.ts's keysetCsv: flat memory). */
export function exportEventsCsv(
  ctx: AppContext,
  scope: TenantScope,
  input: EventFilterInput,
): AsyncIterable<string> {
  const filter = filterOf(input);
  return keysetCsv(
    EVENT_CSV_COLUMNS,
    (after: ListPosition | undefined, limit) =>
      searchEventLog(ctx.db, scope, filter, after ? { older: after } : null, limit),
    (row) => csvRow(row.event),
  );
}
