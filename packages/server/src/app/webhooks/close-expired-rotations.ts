import { closeExpiredRotations } from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';

/**
 * Closes the secret rotations whose expiry has passed on the clock: from then on only the new
 * secret signs, exactly as when the rotation is closed by hand. Returns how many closed.
 */
export async function closeExpiredWebhookRotations(ctx: AppContext, limit: number): Promise<number> {
  const closed = await closeExpiredRotations(ctx.db, ctx.clock.now(), limit);
  return closed.length;
}
