import type { FastifyInstance } from 'fastify';
import { listApiKeysOfTenant } from '../../../app/api-keys/list-api-keys.ts';
import { revokeApiKey } from '../../../app/api-keys/revoke-api-key.ts';
import { rollApiKey } from '../../../app/api-keys/roll-api-key.ts';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { GRACE_CHOICES, graceLabel } from '../../../dashboard/api-keys-page.ts';
import { confirmationPage, confirmationProblem, secretPage } from '../../../dashboard/confirm-pages.ts';
import { fill, keyKindLabel, t } from '../../../dashboard/i18n.ts';
import { href } from '../../../dashboard/navigation.ts';
import { exactTime } from '../../../dashboard/time.ts';
import { AppError, NotFoundError, ValidationError } from '../../../domain/errors.ts';
import { acceptForms, formField, pageAction } from './page-actions.ts';
import { dashboardPage, html, pageFrame, text } from './page-kit.ts';
import type { DashboardScope } from './scope.ts';

type Params = { Params: { id: string } };

/** The grace period a roll asks for: one of the keys page's choices (a hand-made URL gets a 400). */
function graceOf(value: string | undefined): number {
  const seconds = Number(value ?? '86400');
  if (!GRACE_CHOICES.includes(seconds))
    throw new ValidationError('expires_in_seconds', `must be one of ${GRACE_CHOICES.join(', ')}`);
  return seconds;
}

/**
 * Revoking an API key breaks every integration that uses it, so the keys page's Revoke opens a
 * confirmation naming the key; its plain form POST revokes (the operator's use case, audited in
 * its transaction) and sends the browser back to the keys page, which shows the key revoked.
 */
export async function dashboardApiKeyConfirmationRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  acceptForms(app);

  dashboardPage<Params>(app, ctx, '/dashboard/:mode/api-keys/:id/revoke', async (request, reply, start) => {
    const { scope } = start;
    const m = t(scope.locale);
    const key = (await listApiKeysOfTenant(ctx, scope)).find((k) => k.id === request.params.id);
    if (!key) throw new NotFoundError('api_key', request.params.id);
    const keysPage = href(`/dashboard/${scope.mode}/api-keys`, scope.locale);
    const frame = await start.frame(
      `/dashboard/${scope.mode}/api-keys/${key.id}/revoke`,
      m.confirmRevokeTitle,
    );
    return html(
      reply,
      confirmationPage(frame, {
        statement: fill(m.confirmRevoke, { hint: key.key_hint, kind: keyKindLabel(scope.locale, key.kind) }),
        details: [m.confirmRevokeEffect, m.confirmRevokeFinal],
        action: href(`/dashboard/${scope.mode}/api-keys/${key.id}/revoke`, scope.locale),
        button: fill(m.confirmRevokeButton, { hint: key.key_hint }),
        destructive: true,
        cancelHref: keysPage,
      }),
    );
  });

  pageAction<Params>(
    app,
    '/dashboard/:mode/api-keys/:id/revoke',
    'operate',
    async (request, reply, scope) => {
      const audit = auditDashboardAction(ctx, scope, 'api_key.revoked');
      await revokeApiKey(ctx, request.params.id, { scope, audit: (tx) => audit(tx, request.params.id) });
      return reply.redirect(
        href(`/dashboard/${scope.mode}/api-keys`, scope.locale, { revoked: request.params.id }),
        303,
      );
    },
  );

  const keyOf = async (scope: DashboardScope, id: string) => {
    const key = (await listApiKeysOfTenant(ctx, scope)).find((k) => k.id === id && !k.revoked_at);
    if (!key) throw new NotFoundError('api_key', id);
    return key;
  };

  // Rolling replaces a key; with no grace period the old one stops at once, which breaks every
  // integration still using it. The keys page's Roll opens this statement of exactly that.
  dashboardPage<Params>(app, ctx, '/dashboard/:mode/api-keys/:id/roll', async (request, reply, start) => {
    const { scope } = start;
    const m = t(scope.locale);
    const key = await keyOf(scope, request.params.id);
    const path = `/dashboard/${scope.mode}/api-keys/${key.id}/roll`;
    const frame = await start.frame(path, m.confirmRollTitle);
    const keysPage = href(`/dashboard/${scope.mode}/api-keys`, scope.locale);
    let grace: number;
    try {
      grace = graceOf(text(request.query, 'expires_in_seconds'));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return html(reply, confirmationProblem(frame, error.message, keysPage), error.status);
    }
    const until = new Date(ctx.clock.now().getTime() + grace * 1000);
    return html(
      reply,
      confirmationPage(frame, {
        statement: fill(m.confirmRoll, { hint: key.key_hint, kind: keyKindLabel(scope.locale, key.kind) }),
        details: [
          grace === 0
            ? m.confirmRollNow
            : fill(m.confirmRollGrace, {
                grace: graceLabel(scope.locale, grace),
                until: exactTime(until, scope.locale, frame.timeZone),
              }),
          m.confirmRollShownOnce,
        ],
        action: href(path, scope.locale),
        fields: { expires_in_seconds: String(grace) },
        button: fill(m.confirmRollButton, { hint: key.key_hint }),
        destructive: grace === 0,
        cancelHref: keysPage,
      }),
    );
  });

  pageAction<Params>(app, '/dashboard/:mode/api-keys/:id/roll', 'operate', async (request, reply, scope) => {
    const m = t(scope.locale);
    const old = await keyOf(scope, request.params.id);
    const grace = graceOf(formField(request, 'expires_in_seconds'));
    const audit = auditDashboardAction(ctx, scope, 'api_key.rolled');
    const rolled = await rollApiKey(ctx, old.id, {
      scope,
      graceSeconds: grace,
      audit: (tx) => audit(tx, old.id),
    });
    const frame = await pageFrame(
      ctx,
      scope,
      `/dashboard/${scope.mode}/api-keys/${old.id}/roll`,
      m.keyRolledTitle,
    );
    // The new key is the answer of this POST, once (no-store); the keys page shows the new state.
    return html(
      reply,
      secretPage(frame, {
        statement: fill(m.keyRolled, { hint: old.key_hint, kind: keyKindLabel(scope.locale, old.kind) }),
        label: m.newKey,
        secret: rolled.key ?? '',
        backHref: href(`/dashboard/${scope.mode}/api-keys`, scope.locale, { rolled: old.id }),
        backLabel: m.backToKeys,
      }),
    );
  });
}
