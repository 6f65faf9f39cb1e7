import { DashboardModeAndIdParams, DashboardModeParams } from './dashboard.ts';
import { DashboardOverview } from './dashboard-overview.ts';
import {
  PaymentCsv,
  PaymentDetail,
  PaymentExportQuery,
  PaymentSearchQuery,
  PaymentSearchResult,
} from './dashboard-payments.ts';
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
  dashboardSearchPayments: {
    method: 'GET',
    path: '/dashboard/api/v1/{mode}/payments',
    summary: 'Search payments by id, status, amount range, currency, creation time and a metadata key/value',
    credential: 'session',
    params: DashboardModeParams,
    querystring: PaymentSearchQuery,
    response: PaymentSearchResult,
    tag: 'Dashboard',
  },
  dashboardExportPayments: {
    method: 'GET',
    path: '/dashboard/api/v1/{mode}/payments/export.csv',
    summary: 'Every payment the same filters find, as CSV (streamed)',
    credential: 'session',
    params: DashboardModeParams,
    querystring: PaymentExportQuery,
    response: PaymentCsv,
    responseMediaType: 'text/csv',
    tag: 'Dashboard',
  },
  dashboardPaymentDetail: {
    method: 'GET',
    path: '/dashboard/api/v1/{mode}/payments/{id}',
    summary: 'One payment with its status timeline, gateway attempts, refunds, events and their deliveries',
    credential: 'session',
    params: DashboardModeAndIdParams,
    response: PaymentDetail,
    tag: 'Dashboard',
  },
} satisfies Record<string, Operation>;
