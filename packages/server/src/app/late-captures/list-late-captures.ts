import {
  type LateCaptureRecord,
  type LateCaptureRepairStatus,
  listLateCaptures,
} from '../../storage/repositories/late-captures.ts';

/** The record as the back office's pages show it. */
export type { LateCaptureRecord } from '../../storage/repositories/late-captures.ts';

import type { AppContext } from '../context.ts';

/** The operator's list of late captures, newest first, optionally of one repair status. */
export function listLateCapturesFor(
  ctx: AppContext,
  filter: { repairStatus: LateCaptureRepairStatus | null; limit: number },
): Promise<LateCaptureRecord[]> {
  return listLateCaptures(ctx.db, filter);
}
