import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { holdFlash } from '../../../app/dashboard/flash.ts';
import { createApiKey } from '../../../app/merchants/create-merchant.ts';
import { ValidationError } from '../../../domain/errors.ts';
import { dashboardCallerOf } from '../../kit/dashboard-auth.ts';
import { href } from '../../kit/navigation.ts';
import { acceptForms, formField, pageAction } from '../page-actions.ts';

/**
 * The keys page's plain form (owners and developers): creates a key with the API's use case
 * (audited in its transaction), holds the full key server-side for the page the redirect opens
 * (never in its URL; in the same transaction, so no key exists that nobody was shown), which shows it once (post, redirect, get; see app/dashboard/flash.ts).
 */
export async function dashboardApiKeyFormRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  acceptForms(app);

  pageAction(app, '/dashboard/:mode/api-keys', 'operate', async (request, reply, scope) => {
    const kind = formField(request, 'kind');
    if (kind !== 'secret' && kind !== 'publishable')
      throw new ValidationError('kind', 'must be one of secret, publishable');
    const sessionId = dashboardCallerOf(request).sessionId;
    // The key, its audit line and its hold for the next page commit together, or none of them.
    const created = await createApiKey(
      ctx,
      scope.merchantId,
      { livemode: scope.livemode, kind, permissions: null },
      async (tx, key) => {
        await auditDashboardAction(ctx, scope, 'api_key.created')(tx, key.id);
        await holdFlash(ctx, sessionId, 'api_key', JSON.stringify({ id: key.id, key: key.key }), tx);
      },
    );
    const keysPage = href(`/dashboard/${scope.mode}/api-keys`, scope.locale, { created: created.id });
    return reply.redirect(keysPage, 303);
  });
}
