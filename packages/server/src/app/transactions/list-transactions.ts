import {
  type ListTransactionsQuery,
  TRANSACTION_LIST_DEFAULT_LIMIT,
  TRANSACTION_LIST_MAX_LIMIT,
} from '@paygate/contract';
import { ValidationError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { decodeTransactionCursor, encodeTransactionCursor } from '../../domain/transaction-cursor.ts';
import { listTransactionPage } from '../../storage/repositories/transactions.ts';
import type { AppContext } from '../context.ts';

/** A page of the list; its rows are the resources' JSON text, as the database wrote them. */
export interface TransactionListPage {
  itemsJson: string[];
  hasMore: boolean;
  nextCursor: string | null;
}

function instant(field: 'from' | 'to', value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new ValidationError(field, 'must be an ISO 8601 instant with a time zone');
  return new Date(ms);
}

/**
 * One page of the caller's transactions, newest first, with filters and an opaque keyset cursor.
 * The route's schema has already refused unknown parameters and values; this checks what a
 * schema cannot (the cursor, the instants).
 */
export async function listTransactions(
  ctx: AppContext,
  scope: TenantScope,
  query: ListTransactionsQuery,
): Promise<TransactionListPage> {
  const limit = query.limit ?? TRANSACTION_LIST_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > TRANSACTION_LIST_MAX_LIMIT) {
    throw new ValidationError('limit', `must be an integer from 1 to ${TRANSACTION_LIST_MAX_LIMIT}`);
  }
  const page = await listTransactionPage(
    ctx.db,
    scope,
    {
      status: query.status,
      type: query.type,
      from: instant('from', query.from),
      to: instant('to', query.to),
      after: query.cursor === undefined ? undefined : decodeTransactionCursor(query.cursor, ctx.cursorKey),
    },
    limit,
  );
  return {
    itemsJson: page.itemsJson,
    hasMore: page.hasMore,
    nextCursor: page.hasMore && page.last ? encodeTransactionCursor(page.last, ctx.cursorKey) : null,
  };
}
