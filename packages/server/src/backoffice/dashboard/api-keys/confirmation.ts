import type { FastifyInstance } from 'fastify';
import { listApiKeysOfTenant } from '../../../app/api-keys/list-api-keys.ts';
import { revokeApiKey } from '../../../app/api-keys/revoke-api-key.ts';
import { rollApiKey } from '../../../app/api-keys/roll-api-key.ts';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { NotFoundError, ValidationError } from '../../../domain/errors.ts';
import { fill, keyKindLabel } from '../../../i18n/i18n.ts';
import { exactTime } from '../../kit/time.ts';
import { type Asking, confirmedAction } from '../confirmed-action.ts';
import { GRACE_CHOICES, graceLabel } from './page.ts';

/** The grace period a roll asks for: one of the keys page's choices (a hand-made URL gets a 400). */
function graceOf(value: string | undefined): number {
  const seconds = Number(value ?? '86400');
  if (!GRACE_CHOICES.includes(seconds))
    throw new ValidationError('expires_in_seconds', `must be one of ${GRACE_CHOICES.join(', ')}`);
  return seconds;
}

/**
 * Revoking an API key breaks every integration that uses it, and rolling one without a grace
 * period does the same: the keys page's Revoke and Roll open a confirmation naming the key; its
 * plain form POST runs the operator's use case (audited in its transaction) and sends the browser
 * back to the keys page, which shows the new state, or shows the rolled key once.
 */
export async function dashboardApiKeyConfirmationRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  revokeConfirmation(app, ctx);
  rollConfirmation(app, ctx);
}

const keysPage = ({ scope, link }: Asking, query?: Record<string, string>) =>
  link(`/dashboard/${scope.mode}/api-keys`, query);
const keyOf = async (ctx: AppContext, { scope, params }: Asking, { live }: { live: boolean }) => {
  const id = params.id ?? '';
  const key = (await listApiKeysOfTenant(ctx, scope)).find((k) => k.id === id && (!live || !k.revoked_at));
  if (!key) throw new NotFoundError('api_key', id);
  return key;
};

function revokeConfirmation(app: FastifyInstance, ctx: AppContext): void {
  confirmedAction(app, ctx, {
    url: '/dashboard/:mode/api-keys/:id/revoke',
    role: 'operate',
    title: 'confirmRevokeTitle',
    load: (ask) => keyOf(ctx, ask, { live: false }),
    list: (ask) => keysPage(ask),
    back: (_key, ask) => keysPage(ask),
    ask: (key, { m, scope }) => ({
      statement: fill(m.confirmRevoke, { hint: key.key_hint, kind: keyKindLabel(scope.locale, key.kind) }),
      details: [m.confirmRevokeEffect, m.confirmRevokeFinal],
      button: fill(m.confirmRevokeButton, { hint: key.key_hint }),
      destructive: true,
    }),
    run: async (key, ask) => {
      const audit = auditDashboardAction(ctx, ask.scope, 'api_key.revoked');
      await revokeApiKey(ctx, key.id, { scope: ask.scope, audit: (tx) => audit(tx, key.id) });
      return { redirect: keysPage(ask, { revoked: key.id }) };
    },
  });
}

function rollConfirmation(app: FastifyInstance, ctx: AppContext): void {
  // Rolling replaces a key; with no grace period the old one stops at once, which breaks every
  // integration still using it. The keys page's Roll opens this statement of exactly that.
  confirmedAction(app, ctx, {
    url: '/dashboard/:mode/api-keys/:id/roll',
    role: 'operate',
    title: 'confirmRollTitle',
    load: (ask) => keyOf(ctx, ask, { live: true }),
    list: (ask) => keysPage(ask),
    back: (_key, ask) => keysPage(ask),
    ask: (key, { m, scope, input }) => {
      const grace = graceOf(input('expires_in_seconds'));
      const until = new Date(ctx.clock.now().getTime() + grace * 1000);
      return {
        statement: fill(m.confirmRoll, { hint: key.key_hint, kind: keyKindLabel(scope.locale, key.kind) }),
        details: [
          grace === 0
            ? m.confirmRollNow
            : fill(m.confirmRollGrace, {
                grace: graceLabel(scope.locale, grace),
                until: exactTime(until, scope.locale, scope.timeZone ?? undefined),
              }),
          m.confirmRollShownOnce,
        ],
        fields: { expires_in_seconds: String(grace) },
        button: fill(m.confirmRollButton, { hint: key.key_hint }),
        destructive: grace === 0,
      };
    },
    run: async (old, ask) => {
      const { m, scope } = ask;
      const audit = auditDashboardAction(ctx, scope, 'api_key.rolled');
      const rolled = await rollApiKey(ctx, old.id, {
        scope,
        graceSeconds: graceOf(ask.input('expires_in_seconds')),
        audit: (tx) => audit(tx, old.id),
      });
      // The new key is the answer of this POST, once (no-store); the keys page shows the new state.
      return {
        title: 'keyRolledTitle',
        secret: {
          statement: fill(m.keyRolled, { hint: old.key_hint, kind: keyKindLabel(scope.locale, old.kind) }),
          label: m.newKey,
          secret: rolled.key ?? '',
          backHref: keysPage(ask, { rolled: old.id }),
          backLabel: m.backToKeys,
        },
      };
    },
  });
}
