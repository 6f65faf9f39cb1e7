import { ApiKey } from './admin.ts';
import { DashboardModeAndIdParams, DashboardModeParams } from './dashboard.ts';
import { ClientUsageList } from './dashboard-clients.ts';
import { DashboardApiKeyList, DashboardCreateApiKeyBody, RollApiKeyBody } from './dashboard-keys.ts';
import { DashboardOverview } from './dashboard-overview.ts';
import {
  PaymentCsv,
  PaymentDetail,
  PaymentExportQuery,
  PaymentSearchQuery,
  PaymentSearchResult,
} from './dashboard-payments.ts';
import { TotpCodeBody, TotpEnrolment, TotpStatus } from './dashboard-totp.ts';
import { CreateEmbedDomainBody, EmbedDomain, EmbedDomainList, RemovedEmbedDomain } from './embed-domains.ts';
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
  dashboardListApiKeys: {
    method: 'GET',
    path: '/dashboard/api/v1/{mode}/api-keys',
    summary: "The merchant's API keys in this mode (hints only), newest first",
    credential: 'session',
    params: DashboardModeParams,
    response: DashboardApiKeyList,
    tag: 'Dashboard',
  },
  dashboardCreateApiKey: {
    method: 'POST',
    path: '/dashboard/api/v1/{mode}/api-keys',
    summary: 'Create an API key in this mode; the full key is shown only in this response',
    credential: 'session',
    params: DashboardModeParams,
    body: DashboardCreateApiKeyBody,
    response: ApiKey,
    tag: 'Dashboard',
  },
  dashboardRollApiKey: {
    method: 'POST',
    path: '/dashboard/api/v1/{mode}/api-keys/{id}/roll',
    summary: 'Issue a replacement key (shown once); the old one stops now or after expires_in_seconds',
    credential: 'session',
    params: DashboardModeAndIdParams,
    body: RollApiKeyBody,
    response: ApiKey,
    tag: 'Dashboard',
  },
  dashboardRevokeApiKey: {
    method: 'POST',
    path: '/dashboard/api/v1/{mode}/api-keys/{id}/revoke',
    summary: 'Revoke an API key: every process refuses it within seconds',
    credential: 'session',
    params: DashboardModeAndIdParams,
    response: ApiKey,
    tag: 'Dashboard',
  },
  dashboardListEmbedDomains: {
    method: 'GET',
    path: '/dashboard/api/v1/embed-domains',
    summary: 'The origins allowed to embed the checkout frame (both modes)',
    credential: 'session',
    response: EmbedDomainList,
    tag: 'Dashboard',
  },
  dashboardAddEmbedDomain: {
    method: 'POST',
    path: '/dashboard/api/v1/embed-domains',
    summary: 'Allow an origin to embed the checkout frame (201 when added, 200 when already there)',
    credential: 'session',
    body: CreateEmbedDomainBody,
    response: EmbedDomain,
    tag: 'Dashboard',
  },
  dashboardRemoveEmbedDomain: {
    method: 'POST',
    path: '/dashboard/api/v1/embed-domains/remove',
    summary: 'Remove an embedding origin: the checkout frame is refused there from now on',
    credential: 'session',
    body: CreateEmbedDomainBody,
    response: RemovedEmbedDomain,
    tag: 'Dashboard',
  },
  dashboardTotpStatus: {
    method: 'GET',
    path: '/dashboard/api/v1/totp',
    summary: "Whether the signed-in user's two-step sign-in (TOTP) is on",
    credential: 'session',
    response: TotpStatus,
    tag: 'Dashboard',
  },
  dashboardTotpEnrol: {
    method: 'POST',
    path: '/dashboard/api/v1/totp/enrol',
    summary: 'Start TOTP enrolment: a new key (QR code and otpauth URI) that counts once a code is confirmed',
    credential: 'session',
    response: TotpEnrolment,
    tag: 'Dashboard',
  },
  dashboardTotpConfirm: {
    method: 'POST',
    path: '/dashboard/api/v1/totp/confirm',
    summary: 'Confirm enrolment with a current code; answers ten recovery codes, shown once',
    credential: 'session',
    body: TotpCodeBody,
    response: TotpStatus,
    tag: 'Dashboard',
  },
  dashboardTotpDisable: {
    method: 'POST',
    path: '/dashboard/api/v1/totp/disable',
    summary: 'Turn two-step sign-in off (takes a current code or a recovery code)',
    credential: 'session',
    body: TotpCodeBody,
    response: TotpStatus,
    tag: 'Dashboard',
  },
  dashboardListClients: {
    method: 'GET',
    path: '/dashboard/api/v1/{mode}/clients',
    summary:
      'Which client libraries and versions called the API in this mode (User-Agent telemetry), last seen first',
    credential: 'session',
    params: DashboardModeParams,
    response: ClientUsageList,
    tag: 'Dashboard',
  },
} satisfies Record<string, Operation>;
