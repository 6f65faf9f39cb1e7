import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { auditedDashboardChange } from '../../../app/dashboard/audit-dashboard-action.ts';
import { disableWebhookEndpoint } from '../../../app/webhooks/disable-webhook-endpoint.ts';
import { tenantEndpoint } from '../../../app/webhooks/endpoint-lookups.ts';
import { revealWebhookSecret } from '../../../app/webhooks/reveal-webhook-secret.ts';
import {
  DEFAULT_ROTATION_SECONDS,
  rotateWebhookSecret,
  rotationAlreadyOpen,
} from '../../../app/webhooks/rotate-webhook-secret.ts';
import { ValidationError } from '../../../domain/errors.ts';
import { fill } from '../../../i18n/i18n.ts';
import { exactTime } from '../../kit/time.ts';
import { graceLabel } from '../api-keys/page.ts';
import { type Asking, confirmedAction } from '../confirmed-action.ts';
import { ROTATION_CHOICES } from './page.ts';

/**
 * Disabling an endpoint stops the merchant's integration from hearing of payments, a revealed
 * signing secret lets whoever reads it forge events, and a rotated one must reach the merchant's
 * server before the old one stops: each goes through a confirmation that says so (../confirmed-action.ts). Each POST checks the endpoint is the caller's (merchant and mode), runs the operator's
 * use case and records the action, as the dashboard API does. Disabling then sends the browser to
 * the endpoint's page, which shows it disabled (post, redirect, get); a secret is the answer of
 * its POST, shown once, never cached.
 */
export async function dashboardWebhookConfirmationRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  disableConfirmation(app, ctx);
  rotateConfirmation(app, ctx);
  revealConfirmation(app, ctx);
}

const endpointOf =
  (ctx: AppContext) =>
  ({ scope, params }: Asking) =>
    tenantEndpoint(ctx, scope, params.id ?? '');
const endpointPage = (id: string, { scope, link }: Asking, query?: Record<string, string>) =>
  link(`/dashboard/${scope.mode}/webhooks/${id}`, query);

function disableConfirmation(app: FastifyInstance, ctx: AppContext): void {
  confirmedAction(app, ctx, {
    url: '/dashboard/:mode/webhooks/:id/disable',
    role: 'operate',
    title: 'confirmDisableTitle',
    load: endpointOf(ctx),
    list: ({ scope, link }) => link(`/dashboard/${scope.mode}/webhooks`),
    back: (endpoint, ask) => endpointPage(endpoint.id, ask),
    ask: (endpoint, { m }) => ({
      statement: fill(m.confirmDisable, { url: endpoint.url }),
      details: [m.confirmDisableEffect, m.confirmDisableHistory],
      button: fill(m.confirmDisableButton, { url: endpoint.url }),
      destructive: true,
    }),
    run: async (endpoint, ask) => {
      await auditedDashboardChange(
        ctx,
        ask.scope,
        'webhook_endpoint.disabled',
        (audited) => disableWebhookEndpoint(audited, endpoint.id),
        () => endpoint.id,
      );
      return { redirect: endpointPage(endpoint.id, ask, { disabled: '1' }) };
    },
  });
}

function rotateConfirmation(app: FastifyInstance, ctx: AppContext): void {
  // Rotating: a new secret signs from now on, the current one beside it until the chosen time.
  // The page states that time exactly; the new secret is the answer of the POST, shown once.
  const rotationOf = (input: Asking['input']) => {
    const seconds = Number(input('expires_in_seconds') ?? DEFAULT_ROTATION_SECONDS);
    if (!ROTATION_CHOICES.includes(seconds))
      throw new ValidationError('expires_in_seconds', `must be one of ${ROTATION_CHOICES.join(', ')}`);
    return { seconds, until: new Date(ctx.clock.now().getTime() + seconds * 1000) };
  };
  confirmedAction(app, ctx, {
    url: '/dashboard/:mode/webhooks/:id/rotate-secret',
    role: 'operate',
    title: 'confirmRotateTitle',
    load: endpointOf(ctx),
    list: ({ scope, link }) => link(`/dashboard/${scope.mode}/webhooks`),
    back: (endpoint, ask) => endpointPage(endpoint.id, ask),
    ask: (endpoint, { m, scope, input }) => {
      if (endpoint.previousSecretSealed !== null) throw rotationAlreadyOpen();
      const { seconds, until } = rotationOf(input);
      return {
        statement: fill(m.confirmRotate, { url: endpoint.url }),
        details: [
          m.confirmRotateNew,
          fill(m.confirmRotateOld, {
            until: exactTime(until, scope.locale, scope.timeZone ?? undefined),
            grace: graceLabel(scope.locale, seconds),
          }),
        ],
        fields: { expires_in_seconds: String(seconds) },
        button: fill(m.confirmRotateButton, { url: endpoint.url }),
        destructive: false,
      };
    },
    run: async (endpoint, ask) => {
      const { m, scope } = ask;
      const { seconds } = rotationOf(ask.input);
      const rotated = await auditedDashboardChange(
        ctx,
        scope,
        'webhook_endpoint.rotation_opened',
        (audited) => rotateWebhookSecret(audited, endpoint.id, { expiresInSeconds: seconds }),
        () => endpoint.id,
      );
      const until = rotated.endpoint.rotationExpiresAt ?? ctx.clock.now();
      return {
        title: 'secretRotatedTitle',
        secret: {
          statement: fill(m.secretRotated, {
            url: endpoint.url,
            until: exactTime(until, scope.locale, scope.timeZone ?? undefined),
          }),
          label: m.secret,
          secret: rotated.secret,
          backHref: endpointPage(endpoint.id, ask, { rotated: '1' }),
          backLabel: m.backToEndpoint,
        },
      };
    },
  });
}

function revealConfirmation(app: FastifyInstance, ctx: AppContext): void {
  confirmedAction(app, ctx, {
    url: '/dashboard/:mode/webhooks/:id/reveal-secret',
    role: 'operate',
    title: 'confirmRevealTitle',
    load: endpointOf(ctx),
    list: ({ scope, link }) => link(`/dashboard/${scope.mode}/webhooks`),
    back: (endpoint, ask) => endpointPage(endpoint.id, ask),
    ask: (endpoint, { m }) => ({
      statement: fill(m.confirmReveal, { url: endpoint.url }),
      details: [m.confirmRevealEffect, m.confirmRevealAudit],
      button: m.confirmRevealButton,
      destructive: false,
    }),
    run: async (endpoint, ask) => {
      const { m, scope } = ask;
      const secret = await auditedDashboardChange(
        ctx,
        scope,
        'webhook_endpoint.secret_revealed',
        (audited) => revealWebhookSecret(audited, scope, endpoint.id),
        () => endpoint.id,
      );
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
