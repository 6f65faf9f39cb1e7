import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import {
  auditDashboardAction,
  auditedDashboardChange,
} from '../../../app/dashboard/audit-dashboard-action.ts';
import { closeWebhookRotation } from '../../../app/webhooks/close-webhook-rotation.ts';
import { createWebhookEndpoint } from '../../../app/webhooks/create-webhook-endpoint.ts';
import { enableEndpoint } from '../../../app/webhooks/enable-webhook-endpoint.ts';
import { tenantDelivery, tenantEndpoint } from '../../../app/webhooks/endpoint-lookups.ts';
import { resendFailedDeliveries } from '../../../app/webhooks/resend-failed-deliveries.ts';
import { type RetrySender, retryDelivery } from '../../../app/webhooks/retry-webhook-delivery.ts';
import { sendTestWebhookEvent } from '../../../app/webhooks/send-test-webhook-event.ts';
import { updateWebhookEndpoint } from '../../../app/webhooks/update-webhook-endpoint.ts';
import { AppError, ValidationError } from '../../../domain/errors.ts';
import { type EventType, eventTypes } from '../../../domain/events.ts';
import type { TenantScope } from '../../../domain/tenant.ts';
import { fill, t } from '../../../i18n/i18n.ts';
import { secretPage } from '../../kit/confirm-pages.ts';
import { href } from '../../kit/navigation.ts';
import { problemText } from '../../kit/problems.ts';
import { onOwn } from '../on-own.ts';
import { acceptForms, formList, formText, pageAction } from '../page-actions.ts';
import { html, pageFrame } from '../page-kit.ts';
import type { DashboardScope } from '../scope.ts';
import type { RefusedForm } from './page.ts';
import { deliveryPageOf, endpointPageOf, webhooksPageOf } from './page-routes.ts';

type Params = { Params: { id: string } };

/**
 * Runs an action; a refusal (an AppError other than a 404) shows the page again, drawn by `page`
 * with the form's problem in the page's language and what was typed in it.
 */
async function orRefused(
  reply: FastifyReply,
  scope: DashboardScope,
  form: Omit<RefusedForm, 'problem'>,
  act: () => Promise<FastifyReply>,
  page: (refused: RefusedForm) => Promise<string>,
): Promise<FastifyReply> {
  try {
    return await act();
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'resource_not_found') throw error;
    return html(reply, await page({ ...form, problem: problemText(scope.locale, error) }), error.status);
  }
}

/** The event type a test event asks for: one of the contract's (the JSON API's schema says the same). */
function eventTypeOf(value: string): EventType {
  const found = eventTypes.find((type) => type === value);
  if (!found) throw new ValidationError('type', `must be one of ${eventTypes.join(', ')}`);
  return found;
}

/**
 * The webhooks pages' forms as plain HTML form posts (no script needed; the CSRF token is a
 * field). Each runs the same use case as the dashboard API, on the caller's own endpoint or
 * delivery, records the action, and redirects (303) to the page that shows the new state with a
 * status line; a refusal shows the page again with the form's problem in the page's language and
 * what was typed kept. Adding an endpoint answers with its secret, shown once (never in a URL).
 * Disabling, revealing and rotating the secret go through confirmations (confirmation.ts).
 */
export async function dashboardWebhookFormRoutes(
  app: FastifyInstance,
  { ctx, retrySender }: { ctx: AppContext; retrySender: RetrySender },
): Promise<void> {
  acceptForms(app);
  addEndpointForm(app, ctx);
  endpointForms(app, ctx);
  testEventForm(app, ctx);
  deliveryRetryForm(app, ctx, retrySender);
}

const own = (ctx: AppContext) => (scope: TenantScope, id: string) => tenantEndpoint(ctx, scope, id);
const endpointPage = (scope: DashboardScope, id: string, query?: Record<string, string>) =>
  href(`/dashboard/${scope.mode}/webhooks/${id}`, scope.locale, query);

/** An action on one endpoint: `change` runs on the caller's own endpoint, then the redirect. */
function onEndpoint(
  app: FastifyInstance,
  ctx: AppContext,
  path: string,
  form: RefusedForm['form'],
  fields: (request: FastifyRequest) => RefusedForm['values'],
  audit: string,
  change: (
    request: FastifyRequest<Params>,
    scope: DashboardScope,
    audited: AppContext,
  ) => Promise<Record<string, string>>,
) {
  return pageAction<Params>(
    app,
    `/dashboard/:mode/webhooks/:id${path}`,
    'operate',
    async (request, reply, scope) => {
      const { id } = request.params;
      return orRefused(
        reply,
        scope,
        { form, values: fields(request) },
        async () => {
          const query = await onOwn(ctx, request, id, own(ctx), audit, (audited) =>
            change(request, scope, audited),
          );
          return reply.redirect(endpointPage(scope, id, query), 303);
        },
        (refused) => endpointPageOf(ctx, scope, id, {}, refused),
      );
    },
  );
}

/** Adding an endpoint: its secret is shown once, on the page this answers with. */
function addEndpointForm(app: FastifyInstance, ctx: AppContext): void {
  pageAction(app, '/dashboard/:mode/webhooks', 'operate', async (request, reply, scope) => {
    const url = formText(request, 'url');
    return orRefused(
      reply,
      scope,
      { form: 'add', values: { url } },
      async () => {
        const m = t(scope.locale);
        const { endpoint, secret } = await auditedDashboardChange(
          ctx,
          scope,
          'webhook_endpoint.created',
          (audited) => createWebhookEndpoint(audited, scope.merchantId, { url, livemode: scope.livemode }),
          (created) => created.endpoint.id,
        );
        const frame = await pageFrame(
          ctx,
          scope,
          `/dashboard/${scope.mode}/webhooks`,
          m.endpointCreatedTitle,
        );
        return html(
          reply,
          secretPage(frame, {
            statement: fill(m.endpointCreated, { url: endpoint.url }),
            label: m.secret,
            secret,
            backHref: endpointPage(scope, endpoint.id),
            backLabel: m.goToEndpoint,
          }),
        );
      },
      async (refused) => (await webhooksPageOf(ctx, scope, {}, { refused })).body,
    );
  });
}

/** The forms of one endpoint's page: edit, enable, close a rotation, resend the failed. */
function endpointForms(app: FastifyInstance, ctx: AppContext): void {
  onEndpoint(
    app,
    ctx,
    '',
    'edit',
    (request) => ({ url: formText(request, 'url'), enabled_events: formList(request, 'enabled_events') }),
    'webhook_endpoint.updated',
    async (request, _scope, audited) => {
      await updateWebhookEndpoint(audited, request.params.id, {
        url: formText(request, 'url'),
        enabledEvents: formList(request, 'enabled_events'),
      });
      return { saved: '1' };
    },
  );

  // The actions without a field: the use case, its audit entry, the status line it asks for.
  for (const [path, form, audit, change, said] of [
    ['/enable', 'status', 'webhook_endpoint.enabled', enableEndpoint, 'enabled'],
    [
      '/close-rotation',
      'rotate',
      'webhook_endpoint.rotation_closed',
      closeWebhookRotation,
      'rotation_closed',
    ],
  ] as const) {
    onEndpoint(
      app,
      ctx,
      path,
      form,
      () => ({}),
      audit,
      async (request, _scope, audited) => {
        await change(audited, request.params.id);
        return { [said]: '1' };
      },
    );
  }

  onEndpoint(
    app,
    ctx,
    '/resend-failed',
    'resend',
    (request) => ({ since: formText(request, 'since') }),
    'webhook_endpoint.failed_resent',
    async (request, _scope, audited) => {
      const queued = await resendFailedDeliveries(audited, request.params.id, formText(request, 'since'));
      return { resent: String(queued) };
    },
  );
}

function testEventForm(app: FastifyInstance, ctx: AppContext): void {
  // A test event's page is its delivery's: the redirect goes there, where its attempts will show.
  pageAction<Params>(
    app,
    '/dashboard/:mode/webhooks/:id/send-test-event',
    'operate',
    async (request, reply, scope) => {
      const { id } = request.params;
      const type = formText(request, 'type') || 'payment_intent.succeeded';
      return orRefused(
        reply,
        scope,
        { form: 'test', values: { type } },
        async () => {
          const sent = await onOwn(
            ctx,
            request,
            id,
            own(ctx),
            'webhook_endpoint.test_event_sent',
            (audited) => sendTestWebhookEvent(audited, id, eventTypeOf(type)),
          );
          return reply.redirect(
            href(`/dashboard/${scope.mode}/webhooks/deliveries/${sent.deliveryId}`, scope.locale, {
              test_event: '1',
            }),
            303,
          );
        },
        (refused) => endpointPageOf(ctx, scope, id, {}, refused),
      );
    },
  );
}

function deliveryRetryForm(app: FastifyInstance, ctx: AppContext, sender: RetrySender): void {
  pageAction<Params>(
    app,
    '/dashboard/:mode/webhooks/deliveries/:id/retry',
    'operate',
    async (request, reply, scope) => {
      const { id } = request.params;
      return orRefused(
        reply,
        scope,
        { form: 'retry', values: {} },
        async () => {
          // Not through onOwn: the attempt is sent now, outside any transaction; the audit line
          // goes with the claim's.
          await tenantDelivery(ctx, scope, id);
          await retryDelivery(ctx, sender, id, request.log, (tx) =>
            auditDashboardAction(ctx, scope, 'webhook_delivery.retried')(tx, id),
          );
          return reply.redirect(
            href(`/dashboard/${scope.mode}/webhooks/deliveries/${id}`, scope.locale, { retried: '1' }),
            303,
          );
        },
        (refused) => deliveryPageOf(ctx, scope, id, {}, refused),
      );
    },
  );
}
