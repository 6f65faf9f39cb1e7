import { databaseWithin } from '../storage/within-transaction.ts';
import type { AppContext } from './context.ts';
import {
  type IdempotentAnswer,
  type IdempotentRequest,
  OPERATOR_KEY_SPACE,
  runIdempotently,
  type WorkResult,
} from './idempotent-phases.ts';

export { OPERATOR_KEY_SPACE };

/**
 * Runs one of the operator API's creating requests under its Idempotency-Key, in the operator's
 * key space (`runIdempotently`: replay, in flight, reuse): `work` gets a context whose database is
 * the key's transaction, so the use case's own transaction becomes a savepoint of it and what it
 * creates commits together with the stored answer, or neither does.
 */
export function runOperatorIdempotently(
  ctx: AppContext,
  request: IdempotentRequest,
  work: (ctx: AppContext) => Promise<WorkResult>,
): Promise<IdempotentAnswer> {
  return runIdempotently(ctx, request, (tx) => work({ ...ctx, db: databaseWithin(ctx.db, tx) }));
}
