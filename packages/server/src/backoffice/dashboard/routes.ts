import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app/context.ts';
import type { RetrySender } from '../../app/webhooks/retry-webhook-delivery.ts';
import { dashboardApiKeyConfirmationRoutes } from './api-keys/confirmation.ts';
import { dashboardApiKeyFormRoutes } from './api-keys/forms.ts';
import { dashboardApiKeyRoutes } from './api-keys/routes.ts';
import { dashboardPageRoutes } from './assets-routes.ts';
import { dashboardAuditPageRoutes } from './audit/routes.ts';
import { dashboardClientRoutes } from './clients/routes.ts';
import { dashboardEmbedDomainRoutes } from './embed-domains/routes.ts';
import { dashboardEventRoutes } from './events/routes.ts';
import { dashboardOverviewRoutes } from './overview/routes.ts';
import { dashboardCaptureConfirmationRoutes } from './payments/capture-confirmation.ts';
import { dashboardRefundConfirmationRoutes } from './payments/refund-confirmation.ts';
import { dashboardPaymentRoutes } from './payments/routes.ts';
import { dashboardPaymentSearchRoutes } from './payments/search.ts';
import { dashboardReconciliationRoutes } from './reconciliation/routes.ts';
import { startDashboardRequest } from './scope.ts';
import { dashboardSessionPageRoutes } from './session/page-routes.ts';
import { dashboardSessionRoutes } from './session/routes.ts';
import { dashboardSettingsRoutes } from './settings/routes.ts';
import { dashboardTeamChangeRoutes } from './team/changes.ts';
import { dashboardTeamConfirmationRoutes } from './team/confirmation.ts';
import { dashboardTeamFormRoutes } from './team/forms.ts';
import { dashboardTeamRoutes } from './team/routes.ts';
import { dashboardTotpFormRoutes } from './totp/forms.ts';
import { dashboardTotpRoutes } from './totp/routes.ts';
import { dashboardWebhookConfirmationRoutes } from './webhooks/confirmation.ts';
import { dashboardWebhookRoutes } from './webhooks/routes.ts';

/**
 * The URL patterns of every page the back office serves (GET, not its API, not its assets), as
 * registered: the accessibility and Lighthouse walks check that they reached each one, so a new
 * page cannot be left out of them.
 */
const pageUrls = new Set<string>();
export const dashboardPageUrls = (): string[] => [...pageUrls].sort();

/**
 * The back office: its JSON API and its pages. Every signed-in request starts the same way
 * (scope.ts), once, before its handler; the handlers read the result with `scopeOf`.
 */
export async function dashboardRoutes(
  app: FastifyInstance,
  { ctx, retrySender }: { ctx: AppContext; retrySender: RetrySender },
): Promise<void> {
  app.decorateRequest('dashboardScope', null);
  app.addHook('preHandler', startDashboardRequest(ctx));
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (methods.includes('GET') && !/^\/dashboard\/(api|assets)\//.test(route.url)) pageUrls.add(route.url);
  });
  for (const routes of [
    dashboardSessionRoutes,
    dashboardSessionPageRoutes,
    dashboardTeamRoutes,
    dashboardPaymentRoutes,
    dashboardWebhookRoutes,
    dashboardPageRoutes,
    dashboardOverviewRoutes,
    dashboardPaymentSearchRoutes,
    dashboardApiKeyRoutes,
    dashboardApiKeyFormRoutes,
    dashboardEmbedDomainRoutes,
    dashboardTotpRoutes,
    dashboardTotpFormRoutes,
    dashboardClientRoutes,
    dashboardReconciliationRoutes,
    dashboardTeamChangeRoutes,
    dashboardAuditPageRoutes,
    dashboardRefundConfirmationRoutes,
    dashboardCaptureConfirmationRoutes,
    dashboardApiKeyConfirmationRoutes,
    dashboardTeamConfirmationRoutes,
    dashboardTeamFormRoutes,
    dashboardWebhookConfirmationRoutes,
    dashboardSettingsRoutes,
    dashboardEventRoutes,
  ]) {
    await app.register(routes, { ctx, retrySender });
  }
}
