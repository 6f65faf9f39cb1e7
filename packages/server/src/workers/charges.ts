import type { Logger } from 'pino';
import type { BatchResult } from '../app/batch-result.ts';
import type { AppContext } from '../app/context.ts';
import { reconcileOpenCharges, runDueDelayedCharges } from '../app/payments/settle-open-charges.ts';
import type { ScheduledJob } from './scheduler.ts';

export const DELAYED_CHARGES_JOB = 'delayed-charges';
export const RECONCILIATION_JOB = 'charge-reconciliation';
const BATCH_SIZE = 20;

function chargeJob(
  name: string,
  intervalMs: number,
  logger: Logger,
  settle: (limit: number) => Promise<BatchResult>,
): ScheduledJob {
  return {
    name,
    intervalMs,
    batchSize: BATCH_SIZE,
    async run() {
      const { handled, warnings } = await settle(BATCH_SIZE);
      for (const warning of warnings) logger.warn({ job: name }, warning);
      return handled;
    },
  };
}

/** The amount-13 rule of test mode: charges each delayed attempt once it is due. */
export function delayedChargesJob(ctx: AppContext, logger: Logger): ScheduledJob {
  return chargeJob(DELAYED_CHARGES_JOB, 1_000, logger, (limit) => runDueDelayedCharges(ctx, limit));
}

/** Syncs unanswered, pending and waiting charges with their gateway and settles their intents. */
export function reconciliationJob(ctx: AppContext, logger: Logger): ScheduledJob {
  return chargeJob(RECONCILIATION_JOB, 5_000, logger, (limit) => reconcileOpenCharges(ctx, limit));
}
