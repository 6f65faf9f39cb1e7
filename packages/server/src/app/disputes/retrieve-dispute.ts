import { NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { type DisputeRecord, findDispute } from '../../storage/repositories/disputes.ts';
import type { AppContext } from '../context.ts';

/** Reads one dispute of the caller's merchant and mode; any other id is 404. */
export async function retrieveDispute(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
): Promise<DisputeRecord> {
  const dispute = await findDispute(ctx.db, scope, id);
  if (!dispute) throw new NotFoundError('dispute', id);
  return dispute;
}
