import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { readMerchantReconciliation } from '../../../app/gateways/read-reconciliation.ts';
import { modePage } from '../page-kit.ts';
import { reconciliationPage } from './page.ts';

/** How far back the page compares: a week of payments, well inside the longest window (31 days). */
const RECONCILIATION_DAYS = 7;

/** The reconciliation page: the merchant's differences with its gateways' books, per mode. */
export async function dashboardReconciliationRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  modePage(app, ctx, 'reconciliation', 'reconciliation', async ({ scope, frame }) => {
    const to = ctx.clock.now();
    const from = new Date(to.getTime() - RECONCILIATION_DAYS * 24 * 60 * 60 * 1000);
    const report = await readMerchantReconciliation(ctx, scope, {
      from: from.toISOString(),
      to: to.toISOString(),
    });
    return reconciliationPage(frame, report, RECONCILIATION_DAYS);
  });
}
