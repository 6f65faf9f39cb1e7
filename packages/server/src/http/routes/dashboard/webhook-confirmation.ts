import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { recordDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { disableWebhookEndpoint } from '../../../app/webhooks/disable-webhook-endpoint.ts';
import { tenantEndpoint } from '../../../app/webhooks/endpoint-lookups.ts';
import { revealWebhookSecret } from '../../../app/webhooks/reveal-webhook-secret.ts';
import { confirmationPage, secretPage } from '../../../dashboard/confirm-pages.ts';
import { fill, t } from '../../../dashboard/i18n.ts';
import { href } from '../../../dashboard/navigation.ts';
import { acceptForms, pageAction } from './page-actions.ts';
import { dashboardPage, html, pageFrame } from './page-kit.ts';

type Params = { Params: { id: string } };

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
  acceptForms(app);

  dashboardPage<Params>(app, ctx, '/dashboard/:mode/webhooks/:id/disable', async (request, reply, start) => {
    const { scope } = start;
    const m = t(scope.locale);
    const endpoint = await tenantEndpoint(ctx, scope, request.params.id);
    const path = `/dashboard/${scope.mode}/webhooks/${endpoint.id}/disable`;
    const frame = await start.frame(path, m.confirmDisableTitle);
    return html(
      reply,
      confirmationPage(frame, {
        statement: fill(m.confirmDisable, { url: endpoint.url }),
        details: [m.confirmDisableEffect, m.confirmDisableHistory],
        action: href(path, scope.locale),
        button: fill(m.confirmDisableButton, { url: endpoint.url }),
        destructive: true,
        cancelHref: href(`/dashboard/${scope.mode}/webhooks/${endpoint.id}`, scope.locale),
      }),
    );
  });

  pageAction<Params>(
    app,
    '/dashboard/:mode/webhooks/:id/disable',
    'operate',
    async (request, reply, scope) => {
      const endpoint = await tenantEndpoint(ctx, scope, request.params.id);
      await disableWebhookEndpoint(ctx, endpoint.id);
      await recordDashboardAction(ctx, scope, 'webhook_endpoint.disabled', endpoint.id);
      return reply.redirect(
        href(`/dashboard/${scope.mode}/webhooks/${endpoint.id}`, scope.locale, { disabled: '1' }),
        303,
      );
    },
  );

  dashboardPage<Params>(
    app,
    ctx,
    '/dashboard/:mode/webhooks/:id/reveal-secret',
    async (request, reply, start) => {
      const { scope } = start;
      const m = t(scope.locale);
      const endpoint = await tenantEndpoint(ctx, scope, request.params.id);
      const path = `/dashboard/${scope.mode}/webhooks/${endpoint.id}/reveal-secret`;
      const frame = await start.frame(path, m.confirmRevealTitle);
      return html(
        reply,
        confirmationPage(frame, {
          statement: fill(m.confirmReveal, { url: endpoint.url }),
          details: [m.confirmRevealEffect, m.confirmRevealAudit],
          action: href(path, scope.locale),
          button: m.confirmRevealButton,
          destructive: false,
          cancelHref: href(`/dashboard/${scope.mode}/webhooks/${endpoint.id}`, scope.locale),
        }),
      );
    },
  );

  pageAction<Params>(
    app,
    '/dashboard/:mode/webhooks/:id/reveal-secret',
    'operate',
    async (request, reply, scope) => {
      const m = t(scope.locale);
      const endpoint = await tenantEndpoint(ctx, scope, request.params.id);
      const secret = await revealWebhookSecret(ctx, scope, endpoint.id);
      await recordDashboardAction(ctx, scope, 'webhook_endpoint.secret_revealed', endpoint.id);
      const back = href(`/dashboard/${scope.mode}/webhooks/${endpoint.id}`, scope.locale);
      const frame = await pageFrame(
        ctx,
        scope,
        `/dashboard/${scope.mode}/webhooks/${endpoint.id}/reveal-secret`,
        m.secretRevealedTitle,
      );
      return html(
        reply,
        secretPage(frame, {
          statement: fill(m.secretRevealed, { url: endpoint.url }),
          label: m.secret,
          secret,
          backHref: back,
          backLabel: m.backToEndpoint,
        }),
      );
    },
  );
}
