import type { Logger } from 'pino';
import type { AppContext } from '../app/context.ts';
import { repairLateCaptures } from '../app/late-captures/repair-late-captures.ts';
import type { ScheduledJob } from './scheduler.ts';

export const LATE_CAPTURE_REPAIR_JOB = 'late-capture-repair';
const BATCH_SIZE = 20;

/** Refunds captures that arrived after their intent became final otherwise (see app/payments/late-captures.ts). */
export function lateCaptureRepairJob(ctx: AppContext, logger: Logger): ScheduledJob {
  return {
    name: LATE_CAPTURE_REPAIR_JOB,
    intervalMs: 5_000,
    batchSize: BATCH_SIZE,
    async run() {
      const { handled, warnings } = await repairLateCaptures(ctx, BATCH_SIZE);
      for (const warning of warnings) logger.warn({ job: LATE_CAPTURE_REPAIR_JOB }, warning);
      return handled;
    },
  };
}
