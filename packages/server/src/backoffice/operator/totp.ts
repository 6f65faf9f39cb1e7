import type { FastifyInstance } from 'fastify';
import {
  confirmTotpEnrolment,
  disableTotp,
  pendingEnrolment,
  startTotpEnrolment,
  totpStatus,
} from '../../app/back-office-users/totp.ts';
import type { AppContext } from '../../app/context.ts';
import { operatorTotpHolder } from '../../app/operators/operator-accounts.ts';
import { AppError } from '../../domain/errors.ts';
import { pickLanguage } from '../../i18n/i18n.ts';
import { html } from '../dashboard/page-kit.ts';
import { type OperatorCaller, operatorCallerOf } from '../kit/operator-auth.ts';
import { problemText } from '../kit/problems.ts';
import { consoleGet, consolePost, field } from './console-kit.ts';
import { type OperatorView, operatorTotpPage } from './pages.ts';

/**
 * The operator's own second factor, with the dashboard's TOTP use cases (app/back-office-users/totp.ts):
 * the same enrolment, codes, recovery codes and throttle, audited in the operators' log.
 */
export async function operatorTotpRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const accountPage = async (caller: OperatorCaller, view: OperatorView, recoveryCodes?: string[]) => {
    const holder = operatorTotpHolder(caller.operator);
    const { enabled } = await totpStatus(ctx, holder.id);
    const pending = enabled ? null : await pendingEnrolment(ctx, holder);
    return operatorTotpPage(view, { enabled, pending, recoveryCodes });
  };

  consoleGet(app, ctx, '/operator/account', (_request, view, caller) => accountPage(caller, view));

  consolePost(
    app,
    '/operator/account/totp/enrol',
    async (_request, caller) => {
      await startTotpEnrolment(ctx, operatorTotpHolder(caller.operator));
      return { path: '/operator/account', done: 'totp_started' };
    },
    async (request, view) => accountPage(operatorCallerOf(request), view),
  );

  // Confirming answers the recovery codes, shown once: this page is drawn in the POST's answer
  // (never cached), not after a redirect that would have to carry them.
  app.post(
    '/operator/account/totp/confirm',
    { config: { credential: 'operator_session' } },
    async (request, reply) => {
      const caller = operatorCallerOf(request);
      const lang = pickLanguage(request.query, request.headers['accept-language']);
      const view: OperatorView = { lang, email: caller.operator.email, csrfToken: caller.session.csrf_token };
      try {
        const done = await confirmTotpEnrolment(
          ctx,
          operatorTotpHolder(caller.operator),
          field(request, 'code'),
        );
        return html(reply, await accountPage(caller, view, done.recoveryCodes));
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        return html(
          reply,
          await accountPage(caller, { ...view, problem: problemText(lang, error) }),
          error.status,
        );
      }
    },
  );

  consolePost(
    app,
    '/operator/account/totp/disable',
    async (request, caller) => {
      await disableTotp(ctx, operatorTotpHolder(caller.operator), field(request, 'code'));
      return { path: '/operator/account', done: 'totp_off' };
    },
    async (request, view) => accountPage(operatorCallerOf(request), view),
  );
}
