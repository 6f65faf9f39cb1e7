import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { changeTimeZone } from '../../../app/dashboard/time-zone.ts';
import { t } from '../../../i18n/i18n.ts';
import { href } from '../../kit/navigation.ts';
import { acceptForms, formField, pageAction } from '../page-actions.ts';
import { dashboardPage, html, text } from '../page-kit.ts';
import { settingsPage } from './page.ts';

/**
 * The user's settings page (both modes; it keeps the mode it was opened from): the time zone of
 * the exact times. Every role may change its own (action `read`; the CSRF field is still checked).
 */
export async function dashboardSettingsRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  acceptForms(app);

  dashboardPage(app, ctx, '/dashboard/settings', async (request, reply, { scope, frame }) => {
    const framed = await frame('/dashboard/settings', t(scope.locale).settingsNav);
    return html(reply, settingsPage(framed, text(request.query, 'saved') === '1'));
  });

  pageAction(app, '/dashboard/settings/time-zone', 'read', async (request, reply, scope) => {
    await changeTimeZone(ctx, scope.user, formField(request, 'time_zone'));
    return reply.redirect(href('/dashboard/settings', scope.locale, { mode: scope.mode, saved: '1' }), 303);
  });
}
