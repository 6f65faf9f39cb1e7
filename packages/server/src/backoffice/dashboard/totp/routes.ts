import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import {
  confirmTotpEnrolment,
  dashboardTotpHolder,
  disableTotp,
  startTotpEnrolment,
  totpStatus,
} from '../../../app/back-office-users/totp.ts';
import type { AppContext } from '../../../app/context.ts';
import { totpEnrolmentResource, totpResource } from '../../../app/resources/sessions.ts';
import { route } from '../../../http/declare-route.ts';
import { scopeOf } from '../scope.ts';

/**
 * The signed-in user's own second factor. Every role may manage its own (action `read`: nothing
 * of the merchant changes); each change still needs the CSRF token, and turning it off a code.
 */
export async function dashboardTotpRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  route(app, operations.dashboardTotpStatus, async (request) =>
    totpResource(await totpStatus(ctx, scopeOf(request).user.id)),
  );

  route(app, operations.dashboardTotpEnrol, async (request) => {
    const started = await startTotpEnrolment(ctx, dashboardTotpHolder(scopeOf(request).user));
    return totpEnrolmentResource(started);
  });

  route(app, operations.dashboardTotpConfirm, async (request) => {
    const done = await confirmTotpEnrolment(
      ctx,
      dashboardTotpHolder(scopeOf(request).user),
      request.body.code,
    );
    return totpResource({ enabled: true, recovery_codes: done.recoveryCodes });
  });

  route(app, operations.dashboardTotpDisable, async (request) => {
    await disableTotp(ctx, dashboardTotpHolder(scopeOf(request).user), request.body.code);
    return totpResource({ enabled: false });
  });
}
