import { DashboardModeParams } from './dashboard.ts';
import { DashboardOverview } from './dashboard-overview.ts';
import type { Operation } from './operations.ts';

/**
 * The back office's operations beyond sign-in, team, payments list and webhooks: overview,
 * payment search and export, API keys, embedding domains, second factor and client telemetry.
 * Kept in their own table so that `operations` takes them with one spread.
 */
export const dashboardRestOperations = {
  dashboardOverview: {
    method: 'GET',
    path: '/dashboard/api/v1/{mode}/overview',
    summary: "Today's and this month's volume, success rate and refunds per currency, and the last 30 days",
    credential: 'session',
    params: DashboardModeParams,
    response: DashboardOverview,
    tag: 'Dashboard',
  },
} satisfies Record<string, Operation>;
