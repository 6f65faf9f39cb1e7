import { operations } from '@paygate/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { embedDomainsOf } from '../../../app/embed-domains/list-embed-domains.ts';
import { registerEmbedDomain } from '../../../app/embed-domains/register-embed-domain.ts';
import { removeEmbedDomain } from '../../../app/embed-domains/remove-embed-domain.ts';
import { embedDomainResource } from '../../../app/resources/operator.ts';
import { embedDomainsPage } from '../../../dashboard/embed-domains-page.ts';
import { t } from '../../../dashboard/i18n.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import { route } from '../../declare-route.ts';
import { dashboardPage, html } from './page-kit.ts';
import { scopeOf } from './scope.ts';

/** Embedding domains (both modes): list, add, remove, through the operator API's use cases. */
export async function dashboardEmbedDomainRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  // Embedding domains serve both modes: their audit entries name none.
  const audited = (request: FastifyRequest, action: string) => {
    const { merchantId, user } = scopeOf(request);
    return auditDashboardAction(ctx, { merchantId, user }, action);
  };

  route(app, operations.dashboardListEmbedDomains, async (request) => {
    const rows = await embedDomainsOf(ctx.db, scopeOf(request).merchantId);
    return { object: 'list' as const, data: rows.map(embedDomainResource) };
  });

  route(app, operations.dashboardAddEmbedDomain, async (request, reply) => {
    const { domain, created } = await registerEmbedDomain(
      ctx,
      scopeOf(request).merchantId,
      request.body.origin,
      audited(request, 'embed_domain.added'),
    );
    return reply.code(created ? 201 : 200).send(embedDomainResource(domain));
  });

  route(app, operations.dashboardRemoveEmbedDomain, async (request) =>
    removeEmbedDomain(
      ctx,
      scopeOf(request).merchantId,
      request.body.origin,
      audited(request, 'embed_domain.removed'),
    ),
  );

  dashboardPage(app, ctx, '/dashboard/embed-domains', async (_request, reply, { scope, frame }) => {
    const domains = (await embedDomainsOf(ctx.db, scope.merchantId)).map(embedDomainResource);
    const framed = await frame('/dashboard/embed-domains', t(scope.locale).embedDomains);
    return html(reply, embedDomainsPage(framed, domains, roleAllows(scope.role, 'operate')));
  });
}
