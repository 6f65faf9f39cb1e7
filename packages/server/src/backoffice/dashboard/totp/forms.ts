import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  confirmTotpEnrolment,
  dashboardTotpHolder,
  disableTotp,
  pendingEnrolment,
  startTotpEnrolment,
  totpStatus,
} from '../../../app/back-office-users/totp.ts';
import type { AppContext } from '../../../app/context.ts';
import { holdFlash, takeFlash } from '../../../app/dashboard/flash.ts';
import { AppError } from '../../../domain/errors.ts';
import { type Messages, t } from '../../../i18n/i18n.ts';
import { dashboardCallerOf, SESSION_COOKIE } from '../../kit/dashboard-auth.ts';
import { href } from '../../kit/navigation.ts';
import { problemText } from '../../kit/problems.ts';
import { acceptForms, formField, pageAction } from '../page-actions.ts';
import { dashboardPage, html, pageFrame, text } from '../page-kit.ts';
import type { DashboardScope } from '../scope.ts';
import { type TotpOutcome, totpPage } from './page.ts';

/** What the page says after each action (`?done=`); turning it on shows the recovery codes instead. */
const notices = {
  totp_started: 'operatorNoticeTotpStarted',
  totp_on: 'totpOn',
  totp_off: 'totpDisabled',
} as const satisfies Record<string, keyof Messages>;
type Done = keyof typeof notices;

/**
 * The second factor page and its plain forms (every role manages its own: action `read`, the
 * CSRF field still checked): each post runs the same use case as the dashboard API, then
 * redirects to this page showing the new state. The recovery codes are held server-side for that
 * one page (never in its URL); a reload no longer shows them.
 */
export async function dashboardTotpFormRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  acceptForms(app);

  const draw = async (reply: FastifyReply, scope: DashboardScope, outcome: TotpOutcome, status = 200) => {
    const holder = dashboardTotpHolder(scope.user);
    const { enabled } = await totpStatus(ctx, scope.user.id);
    const pending = enabled ? null : await pendingEnrolment(ctx, holder);
    const frame = await pageFrame(ctx, scope, '/dashboard/account', t(scope.locale).secondFactor);
    return html(reply, totpPage(frame, { enabled, pending }, outcome), status);
  };

  dashboardPage(app, ctx, '/dashboard/account', async (request, reply, { scope }) => {
    const done = text(request.query, 'done');
    const key = done && Object.hasOwn(notices, done) ? notices[done as Done] : undefined;
    const held =
      done === 'totp_on'
        ? await takeFlash(ctx, request.cookies[SESSION_COOKIE] ?? '', 'recovery_codes')
        : null;
    return draw(reply, scope, {
      notice: key ? t(scope.locale)[key] : undefined,
      recoveryCodes: held ? (JSON.parse(held) as string[]) : undefined,
    });
  });

  const action = (name: string, run: (request: FastifyRequest, scope: DashboardScope) => Promise<Done>) =>
    pageAction(app, `/dashboard/account/totp/${name}`, 'read', async (request, reply, scope) => {
      try {
        const done = await run(request, scope);
        return reply.redirect(href('/dashboard/account', scope.locale, { mode: scope.mode, done }), 303);
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        return draw(reply, scope, { problem: problemText(scope.locale, error) }, error.status);
      }
    });

  action('enrol', async (_request, scope) => {
    await startTotpEnrolment(ctx, dashboardTotpHolder(scope.user));
    return 'totp_started';
  });

  action('confirm', async (request, scope) => {
    const done = await confirmTotpEnrolment(ctx, dashboardTotpHolder(scope.user), formField(request, 'code'));
    const sessionId = dashboardCallerOf(request).sessionId;
    await holdFlash(ctx, sessionId, 'recovery_codes', JSON.stringify(done.recoveryCodes));
    return 'totp_on';
  });

  action('disable', async (request, scope) => {
    await disableTotp(ctx, dashboardTotpHolder(scope.user), formField(request, 'code'));
    return 'totp_off';
  });
}
