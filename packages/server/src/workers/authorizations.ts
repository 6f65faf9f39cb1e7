import type { Logger } from 'pino';
import { repairAuthorizationOperations } from '../app/captures/authorization-operations.ts';
import { lapseDueAuthorizations } from '../app/captures/lapse-authorizations.ts';
import type { AppContext } from '../app/context.ts';
import type { ScheduledJob } from './scheduler.ts';

export const AUTHORIZATION_LAPSE_JOB = 'authorization-lapse';
export const AUTHORIZATION_REPAIR_JOB = 'authorization-repair';
const BATCH_SIZE = 50;

/** Cancels REQUIRES_CAPTURE intents whose authorisation passed `capture_before` (app/captures/). */
export function authorizationLapseJob(ctx: AppContext): ScheduledJob {
  return {
    name: AUTHORIZATION_LAPSE_JOB,
    intervalMs: 5_000,
    batchSize: BATCH_SIZE,
    run: () => lapseDueAuthorizations(ctx, BATCH_SIZE),
  };
}

/**
 * Finishes captures and voids whose gateway answer was lost (a crash, a time-out, a 5xx): the
 * same request sent again with the same key, the outcome applied (app/captures/).
 */
export function authorizationRepairJob(ctx: AppContext, logger: Logger): ScheduledJob {
  return {
    name: AUTHORIZATION_REPAIR_JOB,
    intervalMs: 5_000,
    batchSize: BATCH_SIZE,
    async run() {
      const handled = await repairAuthorizationOperations(ctx, BATCH_SIZE);
      if (handled > 0)
        logger.info({ job: AUTHORIZATION_REPAIR_JOB, handled }, 'captures and voids taken up again');
      return handled;
    },
  };
}
