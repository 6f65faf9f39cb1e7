import type { Logger } from 'pino';
import type { AppContext } from '../app/context.ts';
import { repairGatewayDetaches } from '../app/saved-payment-methods/detach-saved-payment-method.ts';
import type { ScheduledJob } from './scheduler.ts';

export const GATEWAY_DETACH_REPAIR_JOB = 'gateway-detach-repair';
const BATCH_SIZE = 50;

/**
 * Detaches of saved payment methods the gateway has not confirmed (a 5xx, a time-out, a crash
 * after Paygate detached the method), asked again until it does (app/saved-payment-methods/).
 */
export function gatewayDetachRepairJob(ctx: AppContext, logger: Logger): ScheduledJob {
  return {
    name: GATEWAY_DETACH_REPAIR_JOB,
    intervalMs: 5_000,
    batchSize: BATCH_SIZE,
    async run() {
      const handled = await repairGatewayDetaches(ctx, BATCH_SIZE);
      if (handled > 0)
        logger.info({ job: GATEWAY_DETACH_REPAIR_JOB, handled }, 'gateway detaches taken up again');
      return handled;
    },
  };
}
