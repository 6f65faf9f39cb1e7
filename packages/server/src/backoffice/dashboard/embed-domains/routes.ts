import { operations } from '@paygate/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { canonicalEmbedOrigin, isCanonicalEmbedOrigin } from '../../../app/embed-domains/embed-origins.ts';
import { embedDomainsOf } from '../../../app/embed-domains/list-embed-domains.ts';
import { registerEmbedDomain } from '../../../app/embed-domains/register-embed-domain.ts';
import { removeEmbedDomain } from '../../../app/embed-domains/remove-embed-domain.ts';
import { listResource } from '../../../app/resources/list.ts';
import { embedDomainResource } from '../../../app/resources/operator.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import { AppError, NotFoundError } from '../../../domain/errors.ts';
import { route } from '../../../http/declare-route.ts';
import { fill, t } from '../../../i18n/i18n.ts';
import { href } from '../../kit/navigation.ts';
import { problemText } from '../../kit/problems.ts';
import { confirmedAction } from '../confirmed-action.ts';
import { acceptForms, formText, pageAction } from '../page-actions.ts';
import { dashboardPage, html, pageFrame, text } from '../page-kit.ts';
import { type DashboardScope, scopeOf } from '../scope.ts';
import { type EmbedDomainsOutcome, embedDomainsPage } from './page.ts';

/**
 * Embedding domains (both modes): list, add, remove, through the operator API's use cases; the
 * JSON API, and the page with its plain forms (in a child plugin: the API keeps refusing form bodies).
 */
export async function dashboardEmbedDomainRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  embedDomainApiRoutes(app, ctx);
  dashboardPage(app, ctx, '/dashboard/embed-domains', async (request, reply, { scope }) =>
    html(reply, await domainsPage(ctx, scope, request.query)),
  );
  // The page's own forms in a child plugin: the API keeps refusing form bodies.
  await app.register(async (forms) => embedDomainForms(forms, ctx));
}

// Embedding domains serve both modes: their audit entries name none.
const audited = (ctx: AppContext, request: FastifyRequest, action: string) => {
  const { merchantId, user } = scopeOf(request);
  return auditDashboardAction(ctx, { merchantId, user }, action);
};

function embedDomainApiRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, operations.dashboardListEmbedDomains, async (request) => {
    const rows = await embedDomainsOf(ctx.db, scopeOf(request).merchantId);
    return listResource(rows.map(embedDomainResource));
  });

  route(app, operations.dashboardAddEmbedDomain, async (request, reply) => {
    const { domain, created } = await registerEmbedDomain(
      ctx,
      scopeOf(request).merchantId,
      request.body.origin,
      audited(ctx, request, 'embed_domain.added'),
    );
    return reply.code(created ? 201 : 200).send(embedDomainResource(domain));
  });

  route(app, operations.dashboardRemoveEmbedDomain, async (request) =>
    removeEmbedDomain(
      ctx,
      scopeOf(request).merchantId,
      request.body.origin,
      audited(ctx, request, 'embed_domain.removed'),
    ),
  );
}

/** The page, with the status line of an action's redirect (said only when it is true) or a refusal. */
const domainsPage = async (
  ctx: AppContext,
  scope: DashboardScope,
  query: unknown,
  refused?: EmbedDomainsOutcome['refused'],
) => {
  const m = t(scope.locale);
  const domains = (await embedDomainsOf(ctx.db, scope.merchantId)).map(embedDomainResource);
  const listed = (origin: string | undefined) => domains.some((d) => d.origin === origin);
  const added = text(query, 'added');
  const removed = text(query, 'removed');
  const notice =
    added !== undefined && listed(added)
      ? fill(m.domainAddedNotice, { origin: added })
      : removed !== undefined && !listed(removed) && isCanonicalEmbedOrigin(removed)
        ? fill(m.domainRemovedNotice, { origin: removed })
        : undefined;
  const frame = await pageFrame(ctx, scope, '/dashboard/embed-domains', m.embedDomains);
  return embedDomainsPage(frame, domains, roleAllows(scope.role, 'operate'), {
    notice: refused ? undefined : notice,
    refused,
  });
};

function embedDomainForms(forms: FastifyInstance, ctx: AppContext): void {
  // The page's own forms: plain posts, the same use cases (and audit entries) as the API's.
  acceptForms(forms);
  pageAction(forms, '/dashboard/embed-domains', 'operate', async (request, reply, scope) => {
    const origin = formText(request, 'origin');
    try {
      const { domain } = await registerEmbedDomain(
        ctx,
        scope.merchantId,
        origin,
        audited(ctx, request, 'embed_domain.added'),
      );
      return reply.redirect(href('/dashboard/embed-domains', scope.locale, { added: domain.origin }), 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.code === 'resource_not_found') throw error;
      const refused = { problem: problemText(scope.locale, error), origin };
      return html(reply, await domainsPage(ctx, scope, {}, refused), error.status);
    }
  });

  // Removing stops the checkout on that site at once: a confirmation says so first.
  confirmedAction(forms, ctx, {
    url: '/dashboard/embed-domains/remove',
    role: 'operate',
    title: 'confirmRemoveDomainTitle',
    load: async ({ scope, input }) => {
      const origin = canonicalEmbedOrigin(input('origin') ?? '');
      const rows = await embedDomainsOf(ctx.db, scope.merchantId);
      if (!rows.some((row) => row.origin === origin)) throw new NotFoundError('embed domain', origin);
      return origin;
    },
    list: ({ link }) => link('/dashboard/embed-domains'),
    back: (_origin, { link }) => link('/dashboard/embed-domains'),
    ask: (origin, { m }) => ({
      statement: fill(m.confirmRemoveDomain, { origin }),
      details: [fill(m.confirmRemoveDomainEffect, { origin })],
      fields: { origin },
      button: fill(m.confirmRemoveDomainButton, { origin }),
      destructive: true,
    }),
    run: async (origin, { scope, link }) => {
      await removeEmbedDomain(
        ctx,
        scope.merchantId,
        origin,
        auditDashboardAction(ctx, { merchantId: scope.merchantId, user: scope.user }, 'embed_domain.removed'),
      );
      return { redirect: link('/dashboard/embed-domains', { removed: origin }) };
    },
  });
}
