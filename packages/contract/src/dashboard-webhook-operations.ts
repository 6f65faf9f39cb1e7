import { DashboardModeAndIdParams, DashboardModeParams } from './dashboard.ts';
import {
  DashboardRotateSecretBody,
  RevealedWebhookSecret,
  SearchWebhookDeliveriesQuery,
  WebhookDeliveryLogPage,
} from './dashboard-webhooks.ts';
import type { Operation } from './operations.ts';
import {
  ResendFailedBody,
  ResendFailedResult,
  SendTestEventBody,
  SendTestEventResult,
  UpdateWebhookEndpointBody,
  WebhookDelivery,
  WebhookEndpoint,
} from './webhooks.ts';

const endpointPath = '/dashboard/api/v1/{mode}/webhook-endpoints/{id}';
const deliveriesPath = '/dashboard/api/v1/{mode}/webhook-deliveries';

/**
 * The webhooks page's operations: each is the operator's webhook operation of the same name,
 * scoped to the signed-in user's merchant and the mode in the path.
 */
export const dashboardWebhookOperations = {
  dashboardRetrieveWebhookEndpoint: {
    method: 'GET',
    path: endpointPath,
    summary: 'One webhook endpoint of this mode (without its secret)',
    credential: 'session',
    dashboardAccess: 'read',
    params: DashboardModeAndIdParams,
    response: WebhookEndpoint,
    tag: 'Dashboard',
  },
  dashboardUpdateWebhookEndpoint: {
    method: 'POST',
    path: endpointPath,
    summary: "Change an endpoint's URL or enabled events (owners and developers)",
    credential: 'session',
    dashboardAccess: 'operate',
    params: DashboardModeAndIdParams,
    body: UpdateWebhookEndpointBody,
    response: WebhookEndpoint,
    tag: 'Dashboard',
  },
  dashboardEnableWebhookEndpoint: {
    method: 'POST',
    path: `${endpointPath}/enable`,
    summary: 'Turn a disabled or failing endpoint back on, with a clean failure history',
    credential: 'session',
    dashboardAccess: 'operate',
    params: DashboardModeAndIdParams,
    response: WebhookEndpoint,
    tag: 'Dashboard',
  },
  dashboardRevealWebhookSecret: {
    method: 'POST',
    path: `${endpointPath}/reveal-secret`,
    summary: "Show the endpoint's signing secret (owners and developers; recorded in the audit log)",
    credential: 'session',
    dashboardAccess: 'operate',
    params: DashboardModeAndIdParams,
    response: RevealedWebhookSecret,
    tag: 'Dashboard',
  },
  dashboardRotateWebhookSecret: {
    method: 'POST',
    path: `${endpointPath}/rotate-secret`,
    summary:
      'Open a rotation: a new secret (shown once) signs beside the old one until it closes (default 24 h)',
    credential: 'session',
    dashboardAccess: 'operate',
    params: DashboardModeAndIdParams,
    body: DashboardRotateSecretBody,
    response: WebhookEndpoint,
    tag: 'Dashboard',
  },
  dashboardCloseWebhookRotation: {
    method: 'POST',
    path: `${endpointPath}/close-rotation`,
    summary: 'Close the open rotation now: only the new secret signs',
    credential: 'session',
    dashboardAccess: 'operate',
    params: DashboardModeAndIdParams,
    response: WebhookEndpoint,
    tag: 'Dashboard',
  },
  dashboardResendFailedWebhooks: {
    method: 'POST',
    path: `${endpointPath}/resend-failed`,
    summary: 'Queue one attempt of every FAILED delivery of the endpoint created since an instant',
    credential: 'session',
    dashboardAccess: 'operate',
    params: DashboardModeAndIdParams,
    body: ResendFailedBody,
    response: ResendFailedResult,
    tag: 'Dashboard',
  },
  dashboardSendTestWebhookEvent: {
    method: 'POST',
    path: `${endpointPath}/send-test-event`,
    summary: 'Send a sample event to the endpoint (through the outbox: it shows in the delivery log)',
    credential: 'session',
    dashboardAccess: 'operate',
    params: DashboardModeAndIdParams,
    body: SendTestEventBody,
    response: SendTestEventResult,
    tag: 'Dashboard',
  },
  dashboardSearchWebhookDeliveries: {
    method: 'GET',
    path: deliveriesPath,
    summary:
      'The delivery log of this mode, newest first, searched by endpoint, event id, event type and state',
    credential: 'session',
    dashboardAccess: 'read',
    params: DashboardModeParams,
    querystring: SearchWebhookDeliveriesQuery,
    response: WebhookDeliveryLogPage,
    tag: 'Dashboard',
  },
  dashboardRetrieveWebhookDelivery: {
    method: 'GET',
    path: `${deliveriesPath}/{id}`,
    summary:
      'One delivery with every attempt: time, duration, status, headers sent and received, body excerpt',
    credential: 'session',
    dashboardAccess: 'read',
    params: DashboardModeAndIdParams,
    response: WebhookDelivery,
    tag: 'Dashboard',
  },
  dashboardRetryWebhookDelivery: {
    method: 'POST',
    path: `${deliveriesPath}/{id}/retry`,
    summary: 'Attempt one delivery now (also a FAILED one) and return it with its attempts',
    credential: 'session',
    dashboardAccess: 'operate',
    params: DashboardModeAndIdParams,
    response: WebhookDelivery,
    tag: 'Dashboard',
  },
} satisfies Record<string, Operation>;
