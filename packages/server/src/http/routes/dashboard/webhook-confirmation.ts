import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { recordDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { disableWebhookEndpoint } from '../../../app/webhooks/disable-webhook-endpoint.ts';
import { tenantEndpoint } from '../../../app/webhooks/endpoint-lookups.ts';
import { revealWebhookSecret } from '../../../app/webhooks/reveal-webhook-secret.ts';
import { fill } from '../../../dashboard/i18n.ts';
import { type Asking, confirmedAction } from './confirmed-action.ts';

/**
 * Disabling an endpoint stops the merchant's integration from hearing of payments, and a
 * revealed signing secret lets whoever reads it forge events: both go through a confirmation that
 * says so. Each POST checks the endpoint is the caller's (merchant and mode), runs the operator's
 * use case and records the action, as the dashboard API does. Disabling then sends the browser to
 * the endpoint's page, which shows it disabled (post, redirect, get); the secret is the answer of
 * its POST, shown once, never cached.
 */
export async function dashboardWebhookConfirmationRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const endpointOf = ({ scope, params }: Asking) => tenantEndpoint(ctx, scope, params.id ?? '');
  const endpointPage = (id: string, { scope, link }: Asking, query?: Record<string, string>) =>
    link(`/dashboard/${scope.mode}/webhooks/${id}`, query);

  confirmedAction(app, ctx, {
    url: '/dashboard/:mode/webhooks/:id/disable',
    role: 'operate',
    title: 'confirmDisableTitle',
    load: endpointOf,
    back: (endpoint, ask) => endpointPage(endpoint.id, ask),
    ask: (endpoint, { m }) => ({
      statement: fill(m.confirmDisable, { url: endpoint.url }),
      details: [m.confirmDisableEffect, m.confirmDisableHistory],
      button: fill(m.confirmDisableButton, { url: endpoint.url }),
      destructive: true,
    }),
    run: async (endpoint, ask) => {
      await disableWebhookEndpoint(ctx, endpoint.id);
      await recordDashboardAction(ctx, ask.scope, 'webhook_endpoint.disabled', endpoint.id);
      return { redirect: endpointPage(endpoint.id, ask, { disabled: '1' }) };
    },
  });

  confirmedAction(app, ctx, {
    url: '/dashboard/:mode/webhooks/:id/reveal-secret',
    role: 'operate',
    title: 'confirmRevealTitle',
    load: endpointOf,
    back: (endpoint, ask) => endpointPage(endpoint.id, ask),
    ask: (endpoint, { m }) => ({
      statement: fill(m.confirmReveal, { url: endpoint.url }),
      details: [m.confirmRevealEffect, m.confirmRevealAudit],
      button: m.confirmRevealButton,
      destructive: false,
    }),
    run: async (endpoint, ask) => {
      const { m, scope } = ask;
      const secret = await revealWebhookSecret(ctx, scope, endpoint.id);
      await recordDashboardAction(ctx, scope, 'webhook_endpoint.secret_revealed', endpoint.id);
      return {
        title: 'secretRevealedTitle',
        secret: {
          statement: fill(m.secretRevealed, { url: endpoint.url }),
          label: m.secret,
          secret,
          backHref: endpointPage(endpoint.id, ask),
          backLabel: m.backToEndpoint,
        },
      };
    },
  });
}
