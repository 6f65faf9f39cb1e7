import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import {
  confirmTotpEnrolment,
  dashboardTotpHolder,
  disableTotp,
  pendingEnrolment,
  startTotpEnrolment,
  totpStatus,
} from '../../../app/dashboard/totp.ts';
import { t } from '../../../dashboard/i18n.ts';
import { totpPage } from '../../../dashboard/totp-page.ts';
import { route } from '../../declare-route.ts';
import { dashboardPage, html } from './page-kit.ts';
import { scopeOf } from './scope.ts';

/**
 * The signed-in user's own second factor. Every role may manage its own (action `read`: nothing
 * of the merchant changes); each change still needs the CSRF token, and turning it off a code.
 */
export async function dashboardTotpRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  route(app, operations.dashboardTotpStatus, async (request) => ({
    object: 'totp' as const,
    ...(await totpStatus(ctx, scopeOf(request).user.id)),
  }));

  route(app, operations.dashboardTotpEnrol, async (request) => {
    const started = await startTotpEnrolment(ctx, dashboardTotpHolder(scopeOf(request).user));
    return {
      object: 'totp_enrolment' as const,
      secret: started.secret,
      otpauth_uri: started.otpauthUri,
      qr_svg: started.qrSvg,
    };
  });

  route(app, operations.dashboardTotpConfirm, async (request) => {
    const done = await confirmTotpEnrolment(
      ctx,
      dashboardTotpHolder(scopeOf(request).user),
      request.body.code,
    );
    return { object: 'totp' as const, enabled: true, recovery_codes: done.recoveryCodes };
  });

  route(app, operations.dashboardTotpDisable, async (request) => {
    await disableTotp(ctx, dashboardTotpHolder(scopeOf(request).user), request.body.code);
    return { object: 'totp' as const, enabled: false };
  });

  dashboardPage(app, ctx, '/dashboard/account', async (_request, reply, { scope, frame }) => {
    const { enabled } = await totpStatus(ctx, scope.user.id);
    const pending = enabled ? null : await pendingEnrolment(ctx, dashboardTotpHolder(scope.user));
    const framed = await frame('/dashboard/account', t(scope.locale).secondFactor);
    return html(reply, totpPage(framed, { enabled, pending }));
  });
}
