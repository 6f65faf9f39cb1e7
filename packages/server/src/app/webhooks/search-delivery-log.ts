import { keysetPage, keysetSide } from '../../domain/keyset.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { decodeTransactionCursor, encodeTransactionCursor } from '../../domain/transaction-cursor.ts';
import { searchDeliveries } from '../../storage/repositories/delivery-log.ts';
import type { DeliveryStatus } from '../../storage/repositories/webhook-deliveries.ts';
import type { AppContext } from '../context.ts';
import { type DeliveryWithAttempts, withAttempts } from './delivery-attempts.ts';

export interface DeliveryLogFilter {
  endpointId?: string | undefined;
  eventId?: string | undefined;
  eventType?: string | undefined;
  status?: DeliveryStatus | undefined;
  limit?: number | undefined;
  /** A page's next_cursor: the older deliveries after it. */
  cursor?: string | undefined;
  /** A page's previous_cursor: the newer deliveries before it. */
  before?: string | undefined;
}

export const DELIVERY_LOG_DEFAULT_LIMIT = 50;

export interface DeliveryLogPage {
  deliveries: DeliveryWithAttempts[];
  hasMore: boolean;
  nextCursor: string | null;
  previousCursor: string | null;
}

/**
 * One page of the delivery log of one merchant and mode, newest first, each delivery with its
 * attempts; keyset pages both ways (domain/keyset.ts) with the payments' signed cursors.
 */
export async function searchDeliveryLog(
  ctx: AppContext,
  scope: TenantScope,
  filter: DeliveryLogFilter,
): Promise<DeliveryLogPage> {
  const limit = filter.limit ?? DELIVERY_LOG_DEFAULT_LIMIT;
  const side = keysetSide(filter.cursor, filter.before, (cursor) =>
    decodeTransactionCursor(cursor, ctx.cursorKey, 'wd'),
  );
  const rows = await searchDeliveries(ctx.db, {
    ...scope,
    endpointId: filter.endpointId,
    eventId: filter.eventId,
    eventType: filter.eventType,
    status: filter.status,
    side,
    limit: limit + 1,
  });
  const page = keysetPage(rows, limit, side);
  const first = page.rows[0];
  const last = page.rows.at(-1);
  return {
    deliveries: await withAttempts(
      ctx,
      page.rows.map((row) => row.delivery),
    ),
    hasMore: page.hasOlder,
    nextCursor: page.hasOlder && last ? encodeTransactionCursor(last.position, ctx.cursorKey) : null,
    previousCursor: page.hasNewer && first ? encodeTransactionCursor(first.position, ctx.cursorKey) : null,
  };
}
