import type { Logger } from 'pino';
import type { AppContext } from '../app/context.ts';
import { reconcilePendingRefunds } from '../app/refunds/reconcile-refunds.ts';
import type { ScheduledJob } from './scheduler.ts';

export const REFUND_RECONCILIATION_JOB = 'refund-reconciliation';
const BATCH_SIZE = 20;

/** Syncs PENDING refunds with their gateway and settles them (see app/refunds/reconcile-refunds.ts). */
export function refundReconciliationJob(ctx: AppContext, logger: Logger): ScheduledJob {
  return {
    name: REFUND_RECONCILIATION_JOB,
    intervalMs: 5_000,
    batchSize: BATCH_SIZE,
    async run() {
      const { handled, warnings } = await reconcilePendingRefunds(ctx, BATCH_SIZE);
      for (const warning of warnings) logger.warn({ job: REFUND_RECONCILIATION_JOB }, warning);
      return handled;
    },
  };
}
