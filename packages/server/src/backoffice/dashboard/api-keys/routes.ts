import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import { listApiKeysOfTenant } from '../../../app/api-keys/list-api-keys.ts';
import { revokeApiKey } from '../../../app/api-keys/revoke-api-key.ts';
import { rollApiKey } from '../../../app/api-keys/roll-api-key.ts';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { takeFlash } from '../../../app/dashboard/flash.ts';
import { createApiKey } from '../../../app/merchants/create-merchant.ts';
import { listResource } from '../../../app/resources/list.ts';
import { createdApiKeyResource } from '../../../app/resources/operator.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import { route } from '../../../http/declare-route.ts';
import { t } from '../../../i18n/i18n.ts';
import { SESSION_COOKIE } from '../../kit/dashboard-auth.ts';
import { dashboardPage, html, text } from '../page-kit.ts';
import { scopeOf } from '../scope.ts';
import { apiKeysPage } from './page.ts';

/**
 * API keys of the signed-in user's merchant in the switch's mode: list, create, roll (with a
 * grace period) and revoke, through the operator API's use cases, each audited in its transaction.
 */
export async function dashboardApiKeyRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.dashboardListApiKeys, async (request) =>
    listResource(await listApiKeysOfTenant(ctx, scopeOf(request))),
  );

  route(app, operations.dashboardCreateApiKey, async (request, reply) => {
    const scope = scopeOf(request);
    const created = await createApiKey(
      ctx,
      scope.merchantId,
      { livemode: scope.livemode, kind: request.body.kind, permissions: request.body.permissions ?? null },
      (tx, key) => auditDashboardAction(ctx, scope, 'api_key.created')(tx, key.id),
    );
    return reply.code(201).send(createdApiKeyResource(created));
  });

  route(app, operations.dashboardRollApiKey, async (request, reply) => {
    const scope = scopeOf(request);
    const audit = auditDashboardAction(ctx, scope, 'api_key.rolled');
    const rolled = await rollApiKey(ctx, request.params.id, {
      scope,
      graceSeconds: request.body?.expires_in_seconds ?? 0,
      audit: (tx) => audit(tx, request.params.id),
    });
    return reply.code(201).send(rolled);
  });

  route(app, operations.dashboardRevokeApiKey, async (request) => {
    const scope = scopeOf(request);
    const audit = auditDashboardAction(ctx, scope, 'api_key.revoked');
    return revokeApiKey(ctx, request.params.id, { scope, audit: (tx) => audit(tx, request.params.id) });
  });

  dashboardPage(app, ctx, '/dashboard/:mode/api-keys', async (request, reply, { scope, frame }) => {
    const framed = await frame(`/dashboard/${scope.mode}/api-keys`, t(scope.locale).apiKeys);
    const keys = await listApiKeysOfTenant(ctx, scope);
    const createdId = text(request.query, 'created');
    // The new key itself, once: held server-side by the post, taken (deleted) by this page.
    const held = createdId ? await takeFlash(ctx, request.cookies[SESSION_COOKIE] ?? '', 'api_key') : null;
    const shown = held ? (JSON.parse(held) as { id: string; key: string }) : null;
    return html(
      reply,
      apiKeysPage(framed, keys, roleAllows(scope.role, 'operate'), {
        revokedId: text(request.query, 'revoked'),
        rolledId: text(request.query, 'rolled'),
        createdId,
        createdKey: shown && shown.id === createdId ? shown.key : undefined,
      }),
    );
  });
}
