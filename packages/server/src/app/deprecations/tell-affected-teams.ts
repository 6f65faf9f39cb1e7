import { affectsClient, type DeprecationScope } from '../../domain/deprecations.ts';
import { queueMail } from '../../mail/queue.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  type DeprecationRecord,
  insertRecipient,
  listNoticeRecipients,
  listRecentClients,
  type RecentClient,
} from '../../storage/repositories/deprecations.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { deprecationMail } from './deprecation-mail.ts';

/** How far back telemetry makes a merchant affected (the specification's version data). */
export const TELEMETRY_WINDOW_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The affected clients each merchant's recent telemetry shows, by merchant. */
async function affectedMerchants(
  tx: Queryable,
  scope: DeprecationScope,
  now: Date,
): Promise<Map<string, RecentClient[]>> {
  const since = new Date(now.getTime() - TELEMETRY_WINDOW_DAYS * DAY_MS);
  const names = 'clients' in scope ? scope.clients.map((bound) => bound.name) : null;
  const byMerchant = new Map<string, RecentClient[]>();
  for (const seen of await listRecentClients(tx, since, names)) {
    if (!affectsClient(scope, seen)) continue;
    const list = byMerchant.get(seen.merchantId) ?? [];
    list.push(seen);
    byMerchant.set(seen.merchantId, list);
  }
  return byMerchant;
}

/**
 * Tells every owner and developer of each affected merchant, once: a recipient row and the mail
 * to them are written together in `tx`, and a user already told for this announcement is skipped
 * (the row's key), so running it again, from the announcement or a later run, sends nothing twice.
 * Answers how many users were told now.
 */
export async function tellAffectedTeams(
  ctx: AppContext,
  tx: Queryable,
  deprecation: DeprecationRecord,
  now: Date,
): Promise<number> {
  const affected = await affectedMerchants(tx, deprecation.affected, now);
  let told = 0;
  const team = await listNoticeRecipients(tx, [...affected.keys()]);
  const names = new Map<string, string>();
  for (const member of team) {
    const seen = affected.get(member.merchantId) ?? [];
    const clients = [...new Set(seen.map((c) => (c.version ? `${c.client}/${c.version}` : c.client)))];
    const language = member.language ?? 'en';
    const fresh = await insertRecipient(tx, {
      deprecationId: deprecation.id,
      userId: member.userId,
      merchantId: member.merchantId,
      email: member.email,
      language,
      clients,
      notifiedAt: now,
    });
    if (!fresh) continue;
    if (!names.has(member.merchantId)) {
      names.set(member.merchantId, (await findMerchant(tx, member.merchantId))?.name ?? member.merchantId);
    }
    const mode = seen.some((c) => c.livemode) ? 'live' : 'test';
    const facts = {
      merchantName: names.get(member.merchantId) as string,
      scope: deprecation.affected,
      withdrawOn: deprecation.withdrawOn,
      text: deprecation.bodyText,
      clients,
      clientsPageUrl: `${ctx.publicUrl}/dashboard/${mode}/clients?lang=${language}`,
    };
    const dedupeKey = `deprecation:${deprecation.id}:${member.userId}`;
    await queueMail(tx, now, {
      ...deprecationMail(language, facts, dedupeKey),
      merchantId: member.merchantId,
      to: [member.email],
    });
    told += 1;
  }
  return told;
}
