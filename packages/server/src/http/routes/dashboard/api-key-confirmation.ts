import type { FastifyInstance } from 'fastify';
import { listApiKeysOfTenant } from '../../../app/api-keys/list-api-keys.ts';
import { revokeApiKey } from '../../../app/api-keys/revoke-api-key.ts';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { confirmationPage } from '../../../dashboard/confirm-pages.ts';
import { fill, t } from '../../../dashboard/i18n.ts';
import { href } from '../../../dashboard/navigation.ts';
import { NotFoundError } from '../../../domain/errors.ts';
import { acceptForms, pageAction } from './page-actions.ts';
import { dashboardPage, html } from './page-kit.ts';

type Params = { Params: { id: string } };

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
        statement: fill(m.confirmRevoke, { hint: key.key_hint, kind: key.kind }),
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
}
