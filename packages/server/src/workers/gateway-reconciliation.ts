import type { Logger } from 'pino';
import type { AppContext } from '../app/context.ts';
import { reconcileWithGateways } from '../app/gateways/reconcile-with-gateway.ts';
import type { ScheduledJob } from './scheduler.ts';

export const GATEWAY_RECONCILIATION_JOB = 'gateway-reconciliation';
/** Each run compares the last two hours, every ten minutes: every record is compared many times. */
const WINDOW_MS = 2 * 60 * 60 * 1000;
const INTERVAL_MS = 10 * 60 * 1000;

/**
 * `paygate reconcile` on a schedule: compares the recent window with each gateway's books,
 * repairs what it can and logs every difference that remains for the operator.
 */
export function gatewayReconciliationJob(
  ctx: AppContext,
  logger: Logger,
  options: {
    /**
     * Nothing before this instant is compared: a simulator started by this process knows nothing
     * of what an earlier process charged (its books live in memory).
     */
    notBefore?: Date | null;
  } = {},
): ScheduledJob {
  return {
    name: GATEWAY_RECONCILIATION_JOB,
    intervalMs: INTERVAL_MS,
    async run() {
      const to = ctx.clock.now();
      const from = new Date(Math.max(to.getTime() - WINDOW_MS, options.notBefore?.getTime() ?? 0));
      if (from >= to) return 0;
      const report = await reconcileWithGateways(ctx, {
        from,
        to,
        repair: true,
      });
      for (const difference of report.differences) {
        const log = difference.repaired ? logger.info.bind(logger) : logger.warn.bind(logger);
        log({ job: GATEWAY_RECONCILIATION_JOB, difference }, 'reconciliation difference');
      }
      return 0;
    },
  };
}
