import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { embedDomainsOf } from '../../../app/embed-domains/list-embed-domains.ts';
import { registerEmbedDomain } from '../../../app/embed-domains/register-embed-domain.ts';
import { removeEmbedDomain } from '../../../app/embed-domains/remove-embed-domain.ts';
import { listResource } from '../../../app/resources/list.ts';
import { embedDomainResource } from '../../../app/resources/operator.ts';
import { route } from '../../declare-route.ts';
import { creatingRoute } from './creating-route.ts';

/** The back office's list of web origins that may embed a merchant's checkout frame. */
export async function embedDomainAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  creatingRoute(app, ctx, operations.adminCreateEmbedDomain, async (request, keyed) => {
    const { domain, created } = await registerEmbedDomain(keyed, request.params.id, request.body.origin);
    return { status: created ? 201 : 200, body: embedDomainResource(domain) };
  });

  route(app, operations.adminListEmbedDomains, async (request) =>
    listResource((await embedDomainsOf(ctx.db, request.params.id)).map(embedDomainResource)),
  );

  route(app, operations.adminRemoveEmbedDomain, (request) =>
    removeEmbedDomain(ctx, request.params.id, request.body.origin),
  );
}
