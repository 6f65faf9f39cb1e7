import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import type { RetrySender } from '../../../app/webhooks/retry-webhook-delivery.ts';
import { dashboardApiKeyConfirmationRoutes } from './api-key-confirmation.ts';
import { dashboardApiKeyFormRoutes } from './api-key-forms.ts';
import { dashboardApiKeyRoutes } from './api-keys.ts';
import { dashboardAuditPageRoutes } from './audit-page.ts';
import { dashboardClientRoutes } from './clients.ts';
import { dashboardEmbedDomainRoutes } from './embed-domains.ts';
import { dashboardEventRoutes } from './events.ts';
import { dashboardOverviewRoutes } from './overview.ts';
import { dashboardPageRoutes } from './pages.ts';
import { dashboardPaymentSearchRoutes } from './payment-search.ts';
import { dashboardPaymentRoutes } from './payments.ts';
import { dashboardReconciliationRoutes } from './reconciliation.ts';
import { dashboardRefundConfirmationRoutes } from './refund-confirmation.ts';
import { startDashboardRequest } from './scope.ts';
import { dashboardSessionRoutes } from './session.ts';
import { dashboardSessionPageRoutes } from './session-pages.ts';
import { dashboardSettingsRoutes } from './settings.ts';
import { dashboardTeamRoutes } from './team.ts';
import { dashboardTeamChangeRoutes } from './team-changes.ts';
import { dashboardTeamConfirmationRoutes } from './team-confirmation.ts';
import { dashboardTeamFormRoutes } from './team-forms.ts';
import { dashboardTotpRoutes } from './totp.ts';
import { dashboardTotpFormRoutes } from './totp-forms.ts';
import { dashboardWebhookConfirmationRoutes } from './webhook-confirmation.ts';
import { dashboardWebhookRoutes } from './webhooks.ts';

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
