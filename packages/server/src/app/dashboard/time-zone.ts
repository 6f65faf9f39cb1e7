import { ValidationError } from '../../domain/errors.ts';
import { isTimeZone } from '../../domain/time-zone.ts';
import { setUserTimeZone } from '../../storage/repositories/dashboard-users.ts';
import { recordAudit } from '../back-office-users/audit.ts';
import type { AppContext } from '../context.ts';

/**
 * The time zone a user reads times in. `offered` is the browser's (the page script's cookie):
 * kept only while the user has none, so a zone chosen on the settings page is never overwritten.
 * Returns the zone the pages should use now.
 */
export async function adoptBrowserTimeZone(
  ctx: AppContext,
  user: { id: string; time_zone?: string | null },
  offered: string | undefined,
): Promise<string | null> {
  if (user.time_zone) return user.time_zone;
  if (!isTimeZone(offered)) return null;
  await setUserTimeZone(ctx.db, user.id, offered);
  return offered;
}

/** The settings page's change: a zone the runtime knows, else a `validation_error` naming the field. */
export async function changeTimeZone(
  ctx: AppContext,
  user: { id: string; merchant_id: string },
  timeZone: string,
): Promise<string> {
  if (!isTimeZone(timeZone))
    throw new ValidationError('time_zone', 'must be an IANA time zone, e.g. Europe/Madrid');
  await ctx.db.transaction(async (tx) => {
    await setUserTimeZone(tx, user.id, timeZone);
    await recordAudit(tx, ctx.clock.now(), {
      merchantId: user.merchant_id,
      userId: user.id,
      action: 'user.time_zone_changed',
      target: timeZone,
    });
  });
  return timeZone;
}
