import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { embedDomainsOf, registerEmbedDomain } from '../../../app/embed-domains/embed-domains.ts';
import { removeEmbedDomain } from '../../../app/embed-domains/remove-embed-domain.ts';
import { embedDomainResource } from '../../../app/resources/operator.ts';

/** The back office's list of web origins that may embed a merchant's checkout frame. */
export async function embedDomainAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const create = operations.adminCreateEmbedDomain;
  api.post(
    routePath(create),
    {
      schema: { params: create.params, body: create.body, response: responseSchemas(create) },
      config: { credential: 'admin', rateLimit: false },
    },
    async (request, reply) => {
      const { domain, created } = await registerEmbedDomain(ctx, request.params.id, request.body.origin);
      return reply.code(created ? 201 : 200).send(embedDomainResource(domain));
    },
  );

  const list = operations.adminListEmbedDomains;
  api.get(
    routePath(list),
    {
      schema: { params: list.params, response: responseSchemas(list) },
      config: { credential: 'admin', rateLimit: false },
    },
    async (request) => ({
      object: 'list' as const,
      data: (await embedDomainsOf(ctx.db, request.params.id)).map(embedDomainResource),
    }),
  );

  const remove = operations.adminRemoveEmbedDomain;
  api.post(
    routePath(remove),
    {
      schema: { params: remove.params, body: remove.body, response: responseSchemas(remove) },
      config: { credential: 'admin', rateLimit: false },
    },
    (request) => removeEmbedDomain(ctx, request.params.id, request.body.origin),
  );
}
