import { NotFoundError } from '../../domain/errors.ts';
import { findLateCapture, type LateCaptureRecord } from '../../storage/repositories/late-captures.ts';
import type { AppContext } from '../context.ts';

/** One late capture as the operator sees it. */
export async function retrieveLateCapture(ctx: AppContext, id: string): Promise<LateCaptureRecord> {
  const capture = await findLateCapture(ctx.db, id);
  if (!capture) throw new NotFoundError('late capture', id);
  return capture;
}
