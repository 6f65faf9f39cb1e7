import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { recordAudit } from '../../../app/dashboard/audit.ts';
import { embedDomainsOf } from '../../../app/embed-domains/list-embed-domains.ts';
import { registerEmbedDomain } from '../../../app/embed-domains/register-embed-domain.ts';
import { removeEmbedDomain } from '../../../app/embed-domains/remove-embed-domain.ts';
import { embedDomainResource } from '../../../app/resources/operator.ts';
import { embedDomainsPage } from '../../../dashboard/embed-domains-page.ts';
import { t } from '../../../dashboard/i18n.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import type { Queryable } from '../../../storage/db.ts';
import { dashboardCallerOf } from '../../plugins/dashboard-auth.ts';
import { frameFor, html, languageOf, signedIn, text } from './page-kit.ts';

/** Embedding domains (both modes): list, add, remove, through the operator API's use cases. */
export async function dashboardEmbedDomainRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const audited =
    (user: { id: string; merchant_id: string }, action: string) => (tx: Queryable, origin: string) =>
      recordAudit(tx, ctx.clock.now(), {
        merchantId: user.merchant_id,
        userId: user.id,
        action,
        target: origin,
      });

  const list = operations.dashboardListEmbedDomains;
  api.get(
    routePath(list),
    { schema: { response: responseSchemas(list) }, config: { dashboard: 'read' } },
    async (request) => {
      const rows = await embedDomainsOf(ctx.db, dashboardCallerOf(request).user.merchant_id);
      return { object: 'list' as const, data: rows.map(embedDomainResource) };
    },
  );

  const add = operations.dashboardAddEmbedDomain;
  api.post(
    routePath(add),
    {
      schema: { body: add.body, response: responseSchemas(add) },
      config: { dashboard: 'operate' },
    },
    async (request, reply) => {
      const { user } = dashboardCallerOf(request);
      const { domain, created } = await registerEmbedDomain(
        ctx,
        user.merchant_id,
        request.body.origin,
        audited(user, 'embed_domain.added'),
      );
      return reply.code(created ? 201 : 200).send(embedDomainResource(domain));
    },
  );

  const remove = operations.dashboardRemoveEmbedDomain;
  api.post(
    routePath(remove),
    { schema: { body: remove.body, response: responseSchemas(remove) }, config: { dashboard: 'operate' } },
    async (request) => {
      const { user } = dashboardCallerOf(request);
      return removeEmbedDomain(
        ctx,
        user.merchant_id,
        request.body.origin,
        audited(user, 'embed_domain.removed'),
      );
    },
  );

  app.get('/dashboard/embed-domains', async (request, reply) => {
    const lang = languageOf(request);
    const found = await signedIn(ctx, request, reply, lang);
    if (!found) return reply;
    const mode = text(request.query, 'mode') === 'live' ? 'live' : 'test';
    const domains = (await embedDomainsOf(ctx.db, found.user.merchant_id)).map(embedDomainResource);
    const frame = frameFor(lang, '/dashboard/embed-domains', t(lang).embedDomains, mode, found);
    return html(reply, embedDomainsPage(frame, domains, roleAllows(found.user.role, 'operate')));
  });
}
